#include "core/stats/raw_histogram.hpp"

#include <algorithm>
#include <string>

#include "base/quotient_table.hpp"

namespace esf {

Result<RawSiteHistograms> emptyRawSiteHistograms(int width, int height, int bit_depth,
                                                 RawLevels levels, int bins) {
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
  if (width < 1 || height < 1)
    return fail(ErrorCode::kInvalidArgument, "raw statistics: a ", std::to_string(width), "x",
                std::to_string(height), " frame");
  RawSiteHistograms h;
  h.bins = bins;
  h.bit_depth = bit_depth;
  h.black = black, h.white = white;
  for (auto& c : h.counts) c.assign(size_t(bins), 0);
  return h;
}

Result<RawSiteHistograms> emptyRawSiteHistograms(const std::vector<uint16_t>& raw, int width,
                                                 int height, int bit_depth, RawLevels levels,
                                                 int bins) {
  Result<RawSiteHistograms> h = emptyRawSiteHistograms(width, height, bit_depth, levels, bins);
  if (h && raw.size() != size_t(width) * size_t(height))
    return fail(ErrorCode::kInvalidArgument, "raw statistics: ", std::to_string(raw.size()),
                " values for a ", std::to_string(width), "x", std::to_string(height), " frame");
  return h;
}

Result<RawSiteHistograms> rawSiteHistograms(const std::vector<uint16_t>& raw, int width, int height,
                                            CfaOrder order, int bit_depth, RawLevels levels,
                                            int bins) {
  Result<RawSiteHistograms> checked =
      emptyRawSiteHistograms(raw, width, height, bit_depth, levels, bins);
  if (!checked) return checked;
  RawSiteHistograms& h = *checked;
  const uint32_t black = h.black, white = h.white;
  // The bin of each s in [0, span), s * bins / span (< bins <= 256), from a table: a division
  // per pixel took most of the statistics' time.
  const uint64_t span = uint64_t(white - black) + 1;
  const std::vector<uint8_t> bin_of = byteQuotients(uint64_t(bins), 0, span, size_t(span));
  for (int y = 0; y < height; ++y) {
    const uint16_t* row = &raw[size_t(y) * size_t(width)];
    // A row holds two sites, one at even x and one at odd x. The counts of crushed and clipped
    // values stay in locals: incrementing h's fields every pixel waited on the last increment.
    const size_t even = size_t(cfaSite(order, 0, y)), odd = size_t(cfaSite(order, 1, y));
    uint32_t* even_counts = h.counts[even].data();
    uint32_t* odd_counts = h.counts[odd].data();
    auto bin = [&](uint32_t v) { return bin_of[std::min(v, white) - std::min(v, black)]; };
    uint64_t crushed[2] = {0, 0}, clipped[2] = {0, 0};
    int x = 0;
    for (; x + 1 < width; x += 2) {
      const uint32_t a = row[x], b = row[x + 1];
      ++even_counts[bin(a)];
      ++odd_counts[bin(b)];
      crushed[0] += a <= black, clipped[0] += a >= white;
      crushed[1] += b <= black, clipped[1] += b >= white;
    }
    if (x < width) {
      const uint32_t a = row[x];
      ++even_counts[bin(a)];
      crushed[0] += a <= black, clipped[0] += a >= white;
    }
    h.pixels[even] += uint64_t(width + 1) / 2, h.pixels[odd] += uint64_t(width) / 2;
    h.crushed[even] += crushed[0], h.crushed[odd] += crushed[1];
    h.clipped[even] += clipped[0], h.clipped[odd] += clipped[1];
  }
  return checked;
}

void addRawSiteCounts(RawSiteHistograms& into, const RawSiteHistograms& part) {
  for (size_t site = 0; site < 4; ++site) {
    for (size_t b = 0; b < into.counts[site].size(); ++b)
      into.counts[site][b] += part.counts[site][b];
    into.pixels[site] += part.pixels[site];
    into.crushed[site] += part.crushed[site];
    into.clipped[site] += part.clipped[site];
  }
}

}  // namespace esf
