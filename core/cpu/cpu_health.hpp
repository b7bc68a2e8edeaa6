#pragma once
// The CPU executor's health kernels, split over the row pool's stripes: the frame difference and
// the Sobel sums, equal to frameDifferenceReference and sobelReference (core/stages/).
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/cpu/cpu_histogram.hpp"
#include "core/cpu/row_pool.hpp"
#include "core/cpu/simd_health.hpp"
#include "core/cpu/simd_sobel.hpp"
#include "core/stats/health_figures.hpp"
#include "core/stats/health_regions.hpp"

namespace esf {

// One frame difference's planes, each width x height: the luma Y, the previous P and the
// reference R (P = R = Y on the first frame).
struct DifferencePlanes {
  const uint8_t* luma = nullptr;
  const uint8_t* previous = nullptr;
  const uint8_t* reference = nullptr;
};
// The frame difference and Sobel sums of one frame, gathered while its luma rows are written, on
// the threads that write them (the executor's import, each stripe still in cache): start, then
// addRow(y, band) once row y of planes.luma is written (a stripe's rows are added when its last
// row comes), then finish. The rows come in stripes of
// `stripe_rows` (at least 2) as RowPool::forEachStripe hands them out, each stripe's rows in order
// on one band; a Sobel window that spans two stripes is added by the band that completes the
// second of them. stretch_into null: full range, the Sobel rows are Y's own. Else limited
// range: addRow writes row y's F(Y) (fullRangeLuma) there, a width x height plane the Sobel rows
// read.
class HealthRowSums {
 public:
  void start(const DifferencePlanes& planes, uint8_t* stretch_into, int width, int height,
             const HealthRegionSpec& regions, bool count_histogram, int bands, int stripe_rows);
  void addRow(int y, int band);
  // Every row, on the pool's threads, when the luma plane is already written.
  void addRows(RowPool& pool);
  void finish(FrameDifferenceSums& difference, SobelSums& sobel);

 private:
  struct DifferenceBand {
    simd::DifferenceRowSums row;
    HistogramCounter histogram{ChannelSet::of("l"), LumaWeights::kBt709};  // counts Y as L
    std::vector<uint64_t> region_luma, region_changed;
  };
  struct SobelBand {
    simd::SobelRowSums row;
    std::vector<uint64_t> region_squares;
    std::vector<uint64_t> segment_squares;  // with regions: each of the row's segments' sum of m
  };
  std::span<const uint32_t> rowSpans(int y) const {
    if (spans_.empty()) return {};
    return {row_spans_.data() + row_span_begin_[size_t(y)],
            row_spans_.data() + row_span_begin_[size_t(y) + 1]};
  }
  void addRowNow(int y, int band);  // row y's sums, at once
  void makeRowSpans();              // the row tables below, from spans_, width_ and height_
  void addDifferenceRow(DifferenceBand& b, int y);
  void addSobelRow(SobelBand& b, int center);  // the window centred on row `center`, if any

  DifferencePlanes planes_;
  uint8_t* stretch_into_ = nullptr;
  const uint8_t* sobel_plane_ = nullptr;  // F(Y): stretch_into_ or, for full range, Y
  int width_ = 0, height_ = 0, stripe_rows_ = 2, stripes_ = 0;
  bool count_histogram_ = true;
  simd::SobelRootWay root_way_ = simd::SobelRootWay::kTable;
  uint32_t change_level_ = 0;
  std::vector<RegionSpan> spans_;
  // The spans that cover row y: row_spans_[row_span_begin_[y] .. row_span_begin_[y + 1]) (a
  // grid's row meets one row of cells, not every cell). Beside each, span_segments_: the
  // segments [first, end) of row y's Sobel cuts, row_cuts_[row_cut_begin_[y] ..
  // row_cut_begin_[y + 1]), that the span covers.
  std::vector<uint32_t> row_span_begin_, row_spans_, row_cut_begin_;
  std::vector<std::array<uint32_t, 2>> span_segments_;
  std::vector<int> row_cuts_;
  int row_tables_width_ = -1;  // the width the row tables were made for
  std::vector<DifferenceBand> difference_bands_;
  std::vector<SobelBand> sobel_bands_;
  // Per pair of neighbouring stripes, how many of the two are complete.
  std::unique_ptr<std::atomic<int>[]> boundaries_;
  int boundary_capacity_ = 0;
};

// The frame difference and the Sobel sums (of F(Y)), in one pass over the rows: each row read
// once for both while it is in cache. stretch_into as for HealthRowSums::start. count_histogram
// false: the histogram stays zero (for a caller that has Y's counts already).
void healthSumsCpu(const DifferencePlanes& planes, uint8_t* stretch_into, int width, int height,
                   const HealthRegionSpec& regions, bool count_histogram, RowPool& pool,
                   FrameDifferenceSums& difference, SobelSums& sobel);

// Each half of healthSumsCpu from plain planes, limited range stretched into a temporary
// (previous and reference null: the first frame); the stage tests compare them with the references.
FrameDifferenceSums frameDifferenceCpu(const uint8_t* luma, const uint8_t* previous,
                                       const uint8_t* reference, int width, int height,
                                       bool full_range, const HealthRegionSpec& regions,
                                       RowPool& pool);
SobelSums sobelCpu(const uint8_t* luma, int width, int height, bool full_range,
                   const HealthRegionSpec& regions, RowPool& pool);

}  // namespace esf
