#include "core/cpu/cpu_health.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

#include "core/cpu/cpu_histogram.hpp"
#include "core/cpu/simd_health.hpp"

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

namespace {

// One band's frame difference sums, added row by row.
struct DifferenceBand {
  simd::DifferenceRowSums row;
  HistogramCounter histogram{ChannelSet::of("l"), LumaWeights::kBt709};  // counts Y as L
  std::vector<uint64_t> region_luma, region_changed;
};

void addDifferenceRow(DifferenceBand& b, const DifferencePlanes& planes, int width, int y,
                      const std::vector<RegionSpan>& spans, uint32_t change_level,
                      bool count_histogram) {
  const size_t row = size_t(y) * size_t(width);
  const uint8_t* c = planes.luma + row;
  const uint8_t* p = planes.previous + row;
  simd::differenceRow(c, p, planes.reference + row, planes.stretched + row,
                      planes.stretched_previous + row, width, b.row);
  if (count_histogram) b.histogram.countLuma(c, width);
  for (size_t r = 0; r < spans.size(); ++r) {
    const RegionSpan& span = spans[r];
    if (y < span.y0 || y >= span.y1) continue;
    uint32_t sum = 0, changed = 0;  // 32 bits: a row of up to 65536 pixels
    for (int x = span.x0; x < span.x1; ++x) {
      sum += c[x];
      changed += uint32_t(std::abs(int(c[x]) - int(p[x]))) > change_level;
    }
    b.region_luma[r] += sum;
    b.region_changed[r] += changed;
  }
}

std::vector<DifferenceBand> differenceBands(const RowPool& pool, size_t regions) {
  std::vector<DifferenceBand> bands(size_t(pool.threads()));
  for (DifferenceBand& b : bands) {
    b.region_luma.assign(regions, 0);
    b.region_changed.assign(regions, 0);
  }
  return bands;
}

FrameDifferenceSums differenceTotal(std::vector<DifferenceBand>& bands, size_t regions) {
  FrameDifferenceSums total;
  total.region_luma.assign(regions, 0);
  total.region_changed.assign(regions, 0);
  ValueCounts counts;
  for (DifferenceBand& b : bands) {
    b.histogram.drainInto(counts);
    for (size_t r = 0; r < regions; ++r) {
      total.region_luma[r] += b.region_luma[r];
      total.region_changed[r] += b.region_changed[r];
    }
    total.sad_previous += b.row.sad_previous;
    total.sad_reference += b.row.sad_reference;
    total.motion_sum += b.row.motion_sum;
    total.motion_squares += b.row.motion_squares;
  }
  // Each count is at most width * height < 2^32.
  for (size_t v = 0; v < 256; ++v) total.histogram[v] = uint32_t(counts.counts[3][v]);
  return total;
}

// One band's Sobel sums, added row by row (rows 1 to height - 2).
struct SobelBand {
  simd::SobelRowSums row;
  std::vector<uint64_t> region_squares;
  std::vector<uint32_t> row_m;  // with regions: the row's magnitudes, for their spans
};

void addSobelRow(SobelBand& b, const uint8_t* f, int width, int y,
                 const std::vector<RegionSpan>& spans) {
  const size_t w = size_t(width);
  const uint8_t* above = f + size_t(y - 1) * w;
  bool in_region = false;
  for (const RegionSpan& span : spans) in_region |= y >= span.y0 && y < span.y1;
  if (in_region) b.row_m.resize(w);
  simd::sobelRow(above, above + w, above + 2 * w, width, in_region ? b.row_m.data() : nullptr,
                 b.row);
  for (size_t r = 0; r < spans.size(); ++r) {
    const RegionSpan& span = spans[r];
    if (y < span.y0 || y >= span.y1) continue;
    uint64_t sum = 0;
    for (int x = std::max(span.x0, 1); x < std::min(span.x1, width - 1); ++x)
      sum += b.row_m[size_t(x)];
    b.region_squares[r] += sum;
  }
}

std::vector<SobelBand> sobelBands(const RowPool& pool, size_t regions) {
  std::vector<SobelBand> bands(size_t(pool.threads()));
  for (SobelBand& b : bands) b.region_squares.assign(regions, 0);
  return bands;
}

SobelSums sobelTotal(const std::vector<SobelBand>& bands, size_t regions, int width, int height) {
  SobelSums total;
  total.region_squares.assign(regions, 0);
  if (width < 3 || height < 3) return total;
  total.samples = uint64_t(width - 2) * uint64_t(height - 2);
  int64_t excess = 0;
  for (const SobelBand& b : bands) {
    for (size_t r = 0; r < regions; ++r) total.region_squares[r] += b.region_squares[r];
    total.squares += b.row.squares;
    total.roots += b.row.roots;
    excess += b.row.root_square_excess;
  }
  total.root_squares = rootSquares(total.squares, excess);
  return total;
}

}  // namespace

constexpr int kStripeRows = 16;

void healthSumsCpu(const DifferencePlanes& planes, int width, int height,
                   const HealthRegionSpec& regions, bool count_histogram, RowPool& pool,
                   FrameDifferenceSums& difference, SobelSums& sobel) {
  const std::vector<RegionSpan> spans = healthRegionSpans(regions, width, height);
  std::vector<DifferenceBand> difference_bands = differenceBands(pool, spans.size());
  std::vector<SobelBand> sobel_bands = sobelBands(pool, spans.size());
  const bool has_interior = width >= 3 && height >= 3;
  // Stripes, not bands: a frame's detail (and so the Sobel roots' cost) is rarely even from top
  // to bottom.
  pool.forEachStripe(height, kStripeRows, [&](int begin, int end, int index) {
    for (int y = begin; y < end; ++y) {
      addDifferenceRow(difference_bands[size_t(index)], planes, width, y, spans,
                       regions.change_level, count_histogram);
      if (has_interior && y >= 1 && y < height - 1)
        addSobelRow(sobel_bands[size_t(index)], planes.stretched, width, y, spans);
    }
  });
  difference = differenceTotal(difference_bands, spans.size());
  sobel = sobelTotal(sobel_bands, spans.size(), width, height);
}

void stretchLimitedLumaCpu(const uint8_t* luma, int width, int height, uint8_t* out,
                           RowPool& pool) {
  const size_t w = size_t(width);
  pool.forEachBand(height, [&](int begin, int end, int) {
    for (int y = begin; y < end; ++y)
      simd::stretchLimitedLuma(luma + size_t(y) * w, width, out + size_t(y) * w);
  });
}

namespace {

// healthSumsCpu of plain planes, stretched into temporaries for limited range.
void healthSumsOfPlainPlanes(const uint8_t* luma, const uint8_t* previous, const uint8_t* reference,
                             int width, int height, bool full_range,
                             const HealthRegionSpec& regions, RowPool& pool,
                             FrameDifferenceSums& difference, SobelSums& sobel) {
  DifferencePlanes planes{luma, previous ? previous : luma, reference ? reference : luma, luma,
                          previous ? previous : luma};
  std::vector<uint8_t> stretched, stretched_previous;
  if (!full_range) {
    const size_t n = size_t(width) * size_t(height);
    stretched.resize(n);
    stretched_previous.resize(n);
    stretchLimitedLumaCpu(planes.luma, width, height, stretched.data(), pool);
    stretchLimitedLumaCpu(planes.previous, width, height, stretched_previous.data(), pool);
    planes.stretched = stretched.data();
    planes.stretched_previous = stretched_previous.data();
  }
  healthSumsCpu(planes, width, height, regions, true, pool, difference, sobel);
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
