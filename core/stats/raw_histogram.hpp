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

#include "base/bayer_layout.hpp"
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
// The frame checked as rawSiteHistograms checks it, and its histograms with the levels resolved
// and no counts: for a caller that counts the rows itself (on threads, adding the parts with
// addRawSiteCounts).
Result<RawSiteHistograms> emptyRawSiteHistograms(const std::vector<uint16_t>& raw, int width,
                                                 int height, int bit_depth, RawLevels levels,
                                                 int bins);
// The same for a frame whose values are elsewhere (a GPU texture): its size, levels and bins
// checked, the histograms with the levels resolved and no counts.
Result<RawSiteHistograms> emptyRawSiteHistograms(int width, int height, int bit_depth,
                                                 RawLevels levels, int bins);
// into's counts, pixels, crushed and clipped += part's (both of the same levels and bins: parts
// of one emptyRawSiteHistograms).
void addRawSiteCounts(RawSiteHistograms& into, const RawSiteHistograms& part);

}  // namespace esf
