#include "core/stats/raw_histogram.hpp"

#include <algorithm>
#include <string>

namespace esf {

Result<RawSiteHistograms> rawSiteHistograms(const std::vector<uint16_t>& raw, int width, int height,
                                            CfaOrder order, int bit_depth, RawLevels levels,
                                            int bins) {
  if (bit_depth < 8 || bit_depth > 16)
    return fail(ErrorCode::kInvalidArgument, "raw statistics: bit depth ",
                std::to_string(bit_depth), " is outside 8..16");
  const uint32_t top = (1u << bit_depth) - 1;
  const uint32_t black = levels.black, white = levels.white ? levels.white : top;
  if (white <= black || white > top)
    return fail(ErrorCode::kInvalidArgument, "raw statistics: white level ", std::to_string(white),
                " must be above the black level ", std::to_string(black), " and at most ",
                std::to_string(top));
  if (bins < 1 || bins > 256)
    return fail(ErrorCode::kInvalidArgument, "raw statistics: bins must be in 1..256");
  if (width < 1 || height < 1 || raw.size() != size_t(width) * size_t(height))
    return fail(ErrorCode::kInvalidArgument, "raw statistics: ", std::to_string(raw.size()),
                " values for a ", std::to_string(width), "x", std::to_string(height), " frame");
  RawSiteHistograms h;
  h.bins = bins;
  h.bit_depth = bit_depth;
  h.black = black, h.white = white;
  for (auto& c : h.counts) c.assign(size_t(bins), 0);
  const uint64_t span = uint64_t(white - black) + 1;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const uint32_t v = raw[size_t(y) * size_t(width) + size_t(x)];
      const size_t site = size_t(cfaSite(order, x, y));
      const uint32_t s = std::min(v, white) - std::min(v, black);
      ++h.counts[site][size_t(uint64_t(s) * uint64_t(bins) / span)];
      ++h.pixels[site];
      h.crushed[site] += v <= black;
      h.clipped[site] += v >= white;
    }
  return h;
}

}  // namespace esf
