#pragma once
// Raw statistics straight from a Bayer frame, before demosaicing: one histogram per CFA site
// (R, Gr, Gb, B), what auto-exposure algorithms look at. Values are taken at the sensor's bit
// depth: s = min(max(v - black, 0), white - black), then bin = s * bins / (white - black + 1),
// so the range black..white spreads evenly over the bins (8 bits, black 0, white 255, 256 bins:
// bin = v). Clipping is counted against the sensor's own levels: v <= black is crushed,
// v >= white is clipped.
#include <array>
#include <cstdint>
#include <vector>

#include "capture/bayer.hpp"
#include "esframe/base/result.hpp"
#include "esframe/histogram_data.hpp"

namespace esf {

struct RawLevels {
  uint32_t black = 0;
  uint32_t white = 0;  // 0: 2^bit_depth - 1
};

// Indexed by CfaSite: R, Gr, Gb, B; the levels as used (white resolved from the bit depth).
using RawSiteHistograms = RawHistogramData;

// `raw`: width * height values below 2^bit_depth. bins: 1..256.
Result<RawSiteHistograms> rawSiteHistograms(const std::vector<uint16_t>& raw, int width, int height,
                                            CfaOrder order, int bit_depth, RawLevels levels,
                                            int bins);
// The same over the rows [first_row, end_row) only (the frame's size and levels checked as a
// whole), for a caller that splits the rows over threads and adds the parts with
// addRawSiteCounts.
Result<RawSiteHistograms> rawSiteHistogramsOfRows(const std::vector<uint16_t>& raw, int width,
                                                  int height, CfaOrder order, int bit_depth,
                                                  RawLevels levels, int bins, int first_row,
                                                  int end_row);
// into's counts, pixels, crushed and clipped += part's (both of the same levels and bins).
void addRawSiteCounts(RawSiteHistograms& into, const RawSiteHistograms& part);

}  // namespace esf
