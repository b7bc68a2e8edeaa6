#include "core/cpu/cpu_bayer.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "base/quotient_table.hpp"
#include "core/cpu/simd_bayer.hpp"

namespace esf {
namespace {

// demosaicReference's toByte: the black level off, the gain (256 = 1.0), then
// min((s * 255 + range / 2) / range, 255). That last step is looked up for s in [0, range] (a
// larger s gives 255 too): a division per channel and pixel was most of the demosaic's time.
class ByteLevels {
 public:
  explicit ByteLevels(const DemosaicParams& p)
      : black_(p.black),
        range_(p.white - p.black),
        table_(byteQuotients(255, range_ / 2, range_, size_t(range_) + 1)),
        lanes_{p.black, range_, p.gain_r, p.gain_b} {}
  uint8_t operator()(uint32_t v, uint32_t gain) const {
    uint32_t s = v > black_ ? v - black_ : 0;
    s = (s * gain + 128) >> 8;
    return table_[std::min(s, range_)];
  }
  const simd::BayerLevels& forLanes() const { return lanes_; }

 private:
  uint32_t black_, range_;
  std::vector<uint8_t> table_;
  simd::BayerLevels lanes_;
};

// Pixel x of a row, whose colour is kColour (0 red, 1 green, 2 blue), its left and right
// neighbours' columns l and r given (mirrored at the ends). kRedRow: the row's other colour is red.
template <int kColour, bool kRedRow>
inline void demosaicPixel(const uint16_t* up, const uint16_t* row, const uint16_t* down, int x,
                          int l, int r, const DemosaicParams& p, const ByteLevels& to_byte,
                          uint8_t* out) {
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
  out[0] = to_byte(red, p.gain_r), out[1] = to_byte(green, 256), out[2] = to_byte(blue, p.gain_b);
  out[3] = 255;
}

// One output row from its row and the rows above and below (already mirrored), its colours
// kEven at even x and kOdd at odd x. Columns mirror the same way: -1 reads 1, width reads
// width - 2 (width >= 2).
template <int kEven, int kOdd>
void demosaicRow(const uint16_t* up, const uint16_t* row, const uint16_t* down, int width,
                 const DemosaicParams& p, const ByteLevels& to_byte, uint8_t* out) {
  constexpr bool kRedRow = kEven == 0 || kOdd == 0;
  auto at = [&](int x) { return out + 4 * size_t(x); };
  demosaicPixel<kEven, kRedRow>(up, row, down, 0, 1, 1, p, to_byte, out);
  // The interior in vector lanes: a pixel at a time it took half of a 1080p SRGGB8 frame's time
  // on the executor (about 2.3 of 4.8 ms on 2 Zen 5 cores).
  int x = simd::demosaicInterior(up, row, down, 1, width - 1, kEven, kOdd, to_byte.forLanes(), out);
  for (; x < width; ++x) {  // what is left of the interior, and the last pixel, mirrored
    const int r = x + 1 < width ? x + 1 : width - 2;
    if (x % 2)
      demosaicPixel<kOdd, kRedRow>(up, row, down, x, x - 1, r, p, to_byte, at(x));
    else
      demosaicPixel<kEven, kRedRow>(up, row, down, x, x - 1, r, p, to_byte, at(x));
  }
}

// demosaicRow for a row whose colours at even and odd x are `even` and `odd`.
void demosaicRowOf(int even, int odd, const uint16_t* up, const uint16_t* row, const uint16_t* down,
                   int width, const DemosaicParams& p, const ByteLevels& to_byte, uint8_t* out) {
  if (even == 0) return demosaicRow<0, 1>(up, row, down, width, p, to_byte, out);
  if (odd == 0) return demosaicRow<1, 0>(up, row, down, width, p, to_byte, out);
  if (even == 2) return demosaicRow<2, 1>(up, row, down, width, p, to_byte, out);
  return demosaicRow<1, 2>(up, row, down, width, p, to_byte, out);
}

}  // namespace

Status demosaicCpu(const std::vector<uint16_t>& raw, int width, int height, const DemosaicParams& p,
                   RgbaImage& out, RowPool& pool, const ImportedRow& on_row) {
  if (Status s = p.validate(width, height); !s) return s;
  if (raw.size() != size_t(width) * size_t(height))
    return fail(ErrorCode::kInvalidArgument, "demosaic: ", std::to_string(raw.size()),
                " values for a ", std::to_string(width), "x", std::to_string(height), " frame");
  if (out.width != width || out.height != height) out = RgbaImage(width, height);
  const ByteLevels to_byte(p);
  auto rowAt = [&](int y) {
    y = y < 0 ? -y : (y >= height ? 2 * height - 2 - y : y);
    return &raw[size_t(y) * size_t(width)];
  };
  pool.forEachStripe(height, RowPool::kStripeRows, [&](int begin, int end, int band) {
    for (int y = begin; y < end; ++y) {
      uint8_t* rgba = out.at(0, y);
      demosaicRowOf(cfaColour(p.order, 0, y), cfaColour(p.order, 1, y), rowAt(y - 1), rowAt(y),
                    rowAt(y + 1), width, p, to_byte, rgba);
      if (on_row) on_row(y, rgba, nullptr, band);
    }
  });
  return Status::success();
}

Result<RawSiteHistograms> rawSiteHistogramsCpu(const std::vector<uint16_t>& raw, int width,
                                               int height, CfaOrder order, int bit_depth,
                                               RawLevels levels, int bins, RowPool& pool) {
  // The reference over no rows checks the frame and resolves the levels; the bands below only
  // count.
  Result<RawSiteHistograms> total =
      rawSiteHistogramsOfRows(raw, width, height, order, bit_depth, levels, bins, 0, 0);
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
