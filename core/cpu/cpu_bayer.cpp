#include "core/cpu/cpu_bayer.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "core/cpu/simd_bayer.hpp"

namespace esf {
namespace {

// Pixel x of a row, whose colour is kColour (0 red, 1 green, 2 blue), its left and right
// neighbours' columns l and r given (mirrored at the ends). kRedRow: the row's other colour is red.
template <int kColour, bool kRedRow>
inline void demosaicPixel(const uint16_t* up, const uint16_t* row, const uint16_t* down, int x,
                          int l, int r, const DemosaicParams& p, uint8_t* out) {
  const uint32_t c = row[x];
  uint32_t red, green, blue;
  if constexpr (kColour == 1) {
    const uint32_t across = (uint32_t(row[l]) + row[r] + 1) >> 1;
    const uint32_t along = (uint32_t(up[x]) + down[x] + 1) >> 1;
    red = kRedRow ? across : along, green = c, blue = kRedRow ? along : across;
  } else {
    const uint32_t edges = (uint32_t(row[l]) + row[r] + up[x] + down[x] + 2) >> 2;
    const uint32_t corners = (uint32_t(up[l]) + up[r] + down[l] + down[r] + 2) >> 2;
    red = kColour == 0 ? c : corners, green = edges, blue = kColour == 0 ? corners : c;
  }
  // The levels as the reference takes them: the plain loop does only a row's two end pixels.
  out[0] = demosaicLevel(red, p.gain_r, p), out[1] = demosaicLevel(green, 256, p);
  out[2] = demosaicLevel(blue, p.gain_b, p);
  out[3] = 255;
}

// One output row from its row and the rows above and below (already mirrored), its colours
// kEven at even x and kOdd at odd x. Columns mirror the same way: -1 reads 1, width reads
// width - 2 (width >= 2).
template <int kEven, int kOdd>
void demosaicRow(const uint16_t* up, const uint16_t* row, const uint16_t* down, int width,
                 const DemosaicParams& p, const simd::BayerLevels& levels, uint8_t* out) {
  constexpr bool kRedRow = kEven == 0 || kOdd == 0;
  auto at = [&](int x) { return out + 4 * size_t(x); };
  demosaicPixel<kEven, kRedRow>(up, row, down, 0, 1, 1, p, out);
  // The interior in vector lanes: a pixel at a time it took half of a 1080p SRGGB8 frame's time
  // on the executor (bench/results/zen5-2core-cpu-import.md).
  int x = simd::demosaicInterior(up, row, down, 1, width - 1, kEven, kOdd, levels, out);
  for (; x < width; ++x) {  // what is left of the interior, and the last pixel, mirrored
    const int r = x + 1 < width ? x + 1 : width - 2;
    if (x % 2)
      demosaicPixel<kOdd, kRedRow>(up, row, down, x, x - 1, r, p, at(x));
    else
      demosaicPixel<kEven, kRedRow>(up, row, down, x, x - 1, r, p, at(x));
  }
}

// demosaicRow for a row whose colours at even and odd x are `even` and `odd`.
void demosaicRowOf(int even, int odd, const uint16_t* up, const uint16_t* row, const uint16_t* down,
                   int width, const DemosaicParams& p, const simd::BayerLevels& levels,
                   uint8_t* out) {
  if (even == 0) return demosaicRow<0, 1>(up, row, down, width, p, levels, out);
  if (odd == 0) return demosaicRow<1, 0>(up, row, down, width, p, levels, out);
  if (even == 2) return demosaicRow<2, 1>(up, row, down, width, p, levels, out);
  return demosaicRow<1, 2>(up, row, down, width, p, levels, out);
}

}  // namespace

Status demosaicCpu(const std::vector<uint16_t>& raw, int width, int height, const DemosaicParams& p,
                   RgbaImage& out, RowPool& pool, const ImportedRow& on_row) {
  if (Status s = p.validate(width, height); !s) return s;
  if (raw.size() != size_t(width) * size_t(height))
    return fail(ErrorCode::kInvalidArgument, "demosaic: ", std::to_string(raw.size()),
                " values for a ", std::to_string(width), "x", std::to_string(height), " frame");
  if (out.width != width || out.height != height) out = RgbaImage(width, height);
  const simd::BayerLevels levels{p.black, p.white - p.black, p.gain_r, p.gain_b};
  auto rowAt = [&](int y) {
    y = y < 0 ? -y : (y >= height ? 2 * height - 2 - y : y);
    return &raw[size_t(y) * size_t(width)];
  };
  pool.forEachStripe(height, RowPool::kStripeRows, [&](int begin, int end, int band) {
    for (int y = begin; y < end; ++y) {
      uint8_t* rgba = out.at(0, y);
      demosaicRowOf(cfaColour(p.order, 0, y), cfaColour(p.order, 1, y), rowAt(y - 1), rowAt(y),
                    rowAt(y + 1), width, p, levels, rgba);
      if (on_row) on_row(y, rgba, nullptr, band);
    }
  });
  return Status::success();
}

Result<RawSiteHistograms> rawSiteHistogramsCpu(const std::vector<uint16_t>& raw, int width,
                                               int height, CfaOrder order, int bit_depth,
                                               RawLevels levels, int bins, RowPool& pool) {
  // Checked and the levels resolved as the reference does it; the bands below only count.
  Result<RawSiteHistograms> total =
      emptyRawSiteHistograms(raw, width, height, bit_depth, levels, bins);
  if (!total) return total;
  const simd::RawBinning binning{total->black, total->white, total->white - total->black + 1,
                                 uint32_t(bins)};
  std::vector<RawSiteHistograms> parts(size_t(pool.threads()), total.value());
  pool.forEachBand(height, [&](int begin, int end, int band) {
    RawSiteHistograms& h = parts[size_t(band)];
    std::vector<uint8_t> row_bins(static_cast<size_t>(width));
    for (int y = begin; y < end; ++y) {
      const uint16_t* row = &raw[size_t(y) * size_t(width)];
      uint64_t crushed[2] = {0, 0}, clipped[2] = {0, 0};
      simd::rawBinsOfRow(row, width, binning, row_bins.data(), crushed, clipped);
      // The bins of a row's two sites, one at even x and one at odd x, counted plainly: a
      // histogram's increments have no vector form.
      const size_t even = size_t(cfaSite(order, 0, y)), odd = size_t(cfaSite(order, 1, y));
      uint32_t* even_counts = h.counts[even].data();
      uint32_t* odd_counts = h.counts[odd].data();
      int x = 0;
      for (; x + 1 < width; x += 2)
        ++even_counts[row_bins[size_t(x)]], ++odd_counts[row_bins[size_t(x) + 1]];
      if (x < width) ++even_counts[row_bins[size_t(x)]];
      h.pixels[even] += uint64_t(width + 1) / 2, h.pixels[odd] += uint64_t(width) / 2;
      h.crushed[even] += crushed[0], h.crushed[odd] += crushed[1];
      h.clipped[even] += clipped[0], h.clipped[odd] += clipped[1];
    }
  });
  for (const RawSiteHistograms& part : parts) addRawSiteCounts(*total, part);
  return total;
}

}  // namespace esf
