#include "core/cpu/cpu_health.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

namespace esf {
namespace {

// Sobel sums with q^2 kept as 2^32 sum m + the excess sum (q^2 - 2^32 m): the 96-bit total.
Wide96 rootSquares(uint64_t squares, int64_t excess) {
  Wide96 total;
  total.words = {0, uint32_t(squares), uint32_t(squares >> 32)};
  // The excess sign-extended to 96 bits: Wide96 adds modulo 2^96, and the total is >= 0.
  Wide96 e;
  e.words = {uint32_t(uint64_t(excess)), uint32_t(uint64_t(excess) >> 32),
             excess < 0 ? 0xffffffffu : 0u};
  total.add(e);
  return total;
}

}  // namespace

void HealthRowSums::start(const DifferencePlanes& planes, uint8_t* stretch_into, int width,
                          int height, const HealthRegionSpec& regions, bool count_histogram,
                          int bands, int stripe_rows) {
  planes_ = planes;
  stretch_into_ = stretch_into;
  sobel_plane_ = stretch_into ? stretch_into : planes.luma;
  width_ = width;
  height_ = height;
  count_histogram_ = count_histogram;
  root_way_ = simd::fastestSobelRootWay();
  change_level_ = regions.change_level;
  std::vector<RegionSpan> spans = healthRegionSpans(regions, width, height);
  auto same = [](const RegionSpan& a, const RegionSpan& b) {
    return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1;
  };
  // The rows' spans and cuts are made again only when the spans change (a new size or new
  // regions).
  if (!std::equal(spans.begin(), spans.end(), spans_.begin(), spans_.end(), same) ||
      row_span_begin_.size() != (spans.empty() ? 0 : size_t(height) + 1) ||
      row_tables_width_ != width) {
    spans_ = std::move(spans);
    makeRowSpans();
  }
  stripe_rows_ = std::max(stripe_rows, 2);
  stripes_ = int((int64_t(height) + stripe_rows_ - 1) / stripe_rows_);
  // The bands are kept from frame to frame (their histograms' tables are large once they count
  // pairs), cleared.
  difference_bands_.resize(size_t(std::max(bands, 1)));
  sobel_bands_.resize(size_t(std::max(bands, 1)));
  for (DifferenceBand& b : difference_bands_) {
    b.row = simd::DifferenceRowSums{};
    b.histogram.clear();
    b.region_luma.assign(spans_.size(), 0);
    b.region_changed.assign(spans_.size(), 0);
  }
  for (SobelBand& b : sobel_bands_) {
    b.row = simd::SobelRowSums{};
    b.region_squares.assign(spans_.size(), 0);
  }
  if (boundary_capacity_ < stripes_) {
    boundaries_ = std::make_unique<std::atomic<int>[]>(size_t(stripes_));
    boundary_capacity_ = stripes_;
  }
  for (int k = 0; k < stripes_; ++k) boundaries_[size_t(k)].store(0, std::memory_order_relaxed);
}

void HealthRowSums::makeRowSpans() {
  row_tables_width_ = width_;
  const bool any = !spans_.empty();
  row_span_begin_.assign(any ? size_t(height_) + 1 : 0, 0);
  row_cut_begin_.assign(any ? size_t(height_) + 1 : 0, 0);
  row_spans_.clear();
  span_segments_.clear();
  row_cuts_.clear();
  std::vector<int> cuts;
  for (int y = 0; any && y < height_; ++y) {
    const size_t first_span = row_spans_.size();
    for (size_t r = 0; r < spans_.size(); ++r)
      if (y >= spans_[r].y0 && y < spans_[r].y1) row_spans_.push_back(uint32_t(r));
    row_span_begin_[size_t(y) + 1] = uint32_t(row_spans_.size());
    // The Sobel row's interior cut at its spans' ends (clamped to it): each span's sum of m is
    // that of the segments [cuts[k], cuts[k + 1]) it covers.
    const int lo = 1, hi = std::max(width_ - 1, 1);
    cuts.assign({lo, hi});
    for (size_t i = first_span; i < row_spans_.size(); ++i) {
      cuts.push_back(std::clamp(spans_[row_spans_[i]].x0, lo, hi));
      cuts.push_back(std::clamp(spans_[row_spans_[i]].x1, lo, hi));
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (size_t i = first_span; i < row_spans_.size(); ++i) {
      auto segment = [&](int x) {
        return uint32_t(std::lower_bound(cuts.begin(), cuts.end(), std::clamp(x, lo, hi)) -
                        cuts.begin());
      };
      span_segments_.push_back(
          {segment(spans_[row_spans_[i]].x0), segment(spans_[row_spans_[i]].x1)});
    }
    row_cuts_.insert(row_cuts_.end(), cuts.begin(), cuts.end());
    row_cut_begin_[size_t(y) + 1] = uint32_t(row_cuts_.size());
  }
}

void HealthRowSums::addDifferenceRow(DifferenceBand& b, int y) {
  const size_t row = size_t(y) * size_t(width_);
  const uint8_t* c = planes_.luma + row;
  const uint8_t* p = planes_.previous + row;
  // The previous frame's plane is rarely in cache (2 MB at 1080p, and the frame's own rows went
  // through since): the row waited on its loads. Asking for the row 4 ahead nearly halved the
  // difference's samples in perf (bench/results/zen5-2core-cpu-health.md).
  if (y + 4 < height_ && planes_.previous != planes_.luma) {
    const uint8_t* ahead = p + 4 * size_t(width_);
    for (int x = 0; x < width_; x += 64) __builtin_prefetch(ahead + x);
  }
  simd::differenceRow(c, p, planes_.reference + row, width_,
                      stretch_into_ ? stretch_into_ + row : nullptr, b.row);
  if (count_histogram_) b.histogram.countLuma(c, width_);
  for (uint32_t r : rowSpans(y)) {
    const RegionSpan& span = spans_[r];
    simd::regionRowSums(c + span.x0, p + span.x0, span.x1 - span.x0, change_level_,
                        b.region_luma[r], b.region_changed[r]);
  }
}

void HealthRowSums::addSobelRow(SobelBand& b, int center) {
  if (width_ < 3 || center < 1 || center > height_ - 2) return;
  const size_t w = size_t(width_);
  const uint8_t* above = sobel_plane_ + size_t(center - 1) * w;
  const std::span<const uint32_t> row_spans = rowSpans(center);
  if (row_spans.empty()) {
    simd::sobelRow(above, above + w, above + 2 * w, width_, root_way_, b.row);
    return;
  }
  const size_t first_span = row_span_begin_[size_t(center)];
  const size_t first_cut = row_cut_begin_[size_t(center)];
  const int cut_count = int(row_cut_begin_[size_t(center) + 1] - first_cut);
  b.segment_squares.resize(size_t(cut_count));
  simd::sobelRowSegments(above, above + w, above + 2 * w, row_cuts_.data() + first_cut, cut_count,
                         b.segment_squares.data(), root_way_, b.row);
  for (size_t i = 0; i < row_spans.size(); ++i) {
    const std::array<uint32_t, 2>& segments = span_segments_[first_span + i];
    for (uint32_t k = segments[0]; k < segments[1]; ++k)
      b.region_squares[row_spans[i]] += b.segment_squares[k];
  }
}

void HealthRowSums::addRow(int y, int band) {
  // A stripe's rows are added once its last row is written, not each after its own: the
  // executor counts a row's histograms between two calls, and the health rows' reads evicted
  // the counters' tables from L1 every row (bench/results/zen5-2core-cpu-health.md).
  const int first = (y / stripe_rows_) * stripe_rows_;
  if (y != std::min(first + stripe_rows_, height_) - 1) return;
  for (int row = first; row <= y; ++row) addRowNow(row, band);
}

void HealthRowSums::addRowNow(int y, int band) {
  addDifferenceRow(difference_bands_[size_t(band)], y);
  SobelBand& sobel = sobel_bands_[size_t(band)];
  const int stripe = y / stripe_rows_, first = stripe * stripe_rows_;
  if (y - 2 >= first) addSobelRow(sobel, y - 1);  // its three rows are this stripe's
  if (y != std::min(first + stripe_rows_, height_) - 1) return;
  // The stripe is complete. The windows centred either side of a boundary between two stripes
  // read both: the band completing the second adds them (the acquire sees the other's rows).
  auto add_boundary = [&](int boundary, int next_first) {
    if (boundaries_[size_t(boundary)].fetch_add(1, std::memory_order_acq_rel) != 1) return;
    addSobelRow(sobel, next_first - 1);
    addSobelRow(sobel, next_first);
  };
  if (stripe > 0) add_boundary(stripe - 1, first);
  if (stripe + 1 < stripes_) add_boundary(stripe, first + stripe_rows_);
}

void HealthRowSums::addRows(RowPool& pool) {
  pool.forEachStripe(height_, stripe_rows_, [&](int begin, int end, int band) {
    for (int y = begin; y < end; ++y) addRowNow(y, band);
  });
}

void HealthRowSums::finish(FrameDifferenceSums& difference, SobelSums& sobel) {
  const size_t regions = spans_.size();
  difference = FrameDifferenceSums{};
  difference.region_luma.assign(regions, 0);
  difference.region_changed.assign(regions, 0);
  ValueCounts counts;
  for (DifferenceBand& b : difference_bands_) {
    b.histogram.drainInto(counts);
    for (size_t r = 0; r < regions; ++r) {
      difference.region_luma[r] += b.region_luma[r];
      difference.region_changed[r] += b.region_changed[r];
    }
    difference.sad_previous += b.row.sad_previous;
    difference.sad_reference += b.row.sad_reference;
    difference.motion_sum += b.row.motion_sum;
    difference.motion_squares += b.row.motion_squares;
  }
  // Each count is at most width * height < 2^32.
  for (size_t v = 0; v < 256; ++v) difference.histogram[v] = uint32_t(counts.counts[3][v]);

  sobel = SobelSums{};
  sobel.region_squares.assign(regions, 0);
  if (width_ < 3 || height_ < 3) return;
  sobel.samples = uint64_t(width_ - 2) * uint64_t(height_ - 2);
  int64_t excess = 0;
  for (const SobelBand& b : sobel_bands_) {
    for (size_t r = 0; r < regions; ++r) sobel.region_squares[r] += b.region_squares[r];
    sobel.squares += b.row.squares;
    sobel.roots += b.row.roots;
    excess += b.row.root_square_excess;
  }
  sobel.root_squares = rootSquares(sobel.squares, excess);
}

void healthSumsCpu(const DifferencePlanes& planes, uint8_t* stretch_into, int width, int height,
                   const HealthRegionSpec& regions, bool count_histogram, RowPool& pool,
                   FrameDifferenceSums& difference, SobelSums& sobel) {
  HealthRowSums rows;
  rows.start(planes, stretch_into, width, height, regions, count_histogram, pool.threads(),
             RowPool::kStripeRows);
  rows.addRows(pool);
  rows.finish(difference, sobel);
}

namespace {

// healthSumsCpu of plain planes, limited range stretched into a temporary.
void healthSumsOfPlainPlanes(const uint8_t* luma, const uint8_t* previous, const uint8_t* reference,
                             int width, int height, bool full_range,
                             const HealthRegionSpec& regions, RowPool& pool,
                             FrameDifferenceSums& difference, SobelSums& sobel) {
  const DifferencePlanes planes{luma, previous ? previous : luma, reference ? reference : luma};
  std::vector<uint8_t> stretched;
  if (!full_range) stretched.resize(size_t(width) * size_t(height));
  healthSumsCpu(planes, full_range ? nullptr : stretched.data(), width, height, regions, true, pool,
                difference, sobel);
}

}  // namespace

FrameDifferenceSums frameDifferenceCpu(const uint8_t* luma, const uint8_t* previous,
                                       const uint8_t* reference, int width, int height,
                                       bool full_range, const HealthRegionSpec& regions,
                                       RowPool& pool) {
  FrameDifferenceSums difference;
  SobelSums sobel;
  healthSumsOfPlainPlanes(luma, previous, reference, width, height, full_range, regions, pool,
                          difference, sobel);
  return difference;
}

SobelSums sobelCpu(const uint8_t* luma, int width, int height, bool full_range,
                   const HealthRegionSpec& regions, RowPool& pool) {
  FrameDifferenceSums difference;
  SobelSums sobel;
  healthSumsOfPlainPlanes(luma, nullptr, nullptr, width, height, full_range, regions, pool,
                          difference, sobel);
  return sobel;
}

}  // namespace esf
