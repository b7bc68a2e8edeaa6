#include "core/cpu/cpu_bayer.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "base/quotient_table.hpp"

namespace esf {
namespace {

// demosaicReference's toByte: the black level off, the gain (256 = 1.0), then
// min((s * 255 + range / 2) / range, 255). That last step is looked up for s in [0, range] (a
// larger s gives 255 too): a division per channel and pixel was most of the demosaic's time.
class ByteLevels {
 public:
  ByteLevels(uint32_t black, uint32_t white)
      : black_(black),
        range_(white - black),
        table_(byteQuotients(255, range_ / 2, range_, size_t(range_) + 1)) {}
  uint8_t operator()(uint32_t v, uint32_t gain) const {
    uint32_t s = v > black_ ? v - black_ : 0;
    s = (s * gain + 128) >> 8;
    return table_[std::min(s, range_)];
  }

 private:
  uint32_t black_, range_;
  std::vector<uint8_t> table_;
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
  int x = 1;
  for (; x + 2 < width; x += 2) {  // an odd pixel, then an even one
    demosaicPixel<kOdd, kRedRow>(up, row, down, x, x - 1, x + 1, p, to_byte, at(x));
    demosaicPixel<kEven, kRedRow>(up, row, down, x + 1, x, x + 2, p, to_byte, at(x + 1));
  }
  for (; x < width; ++x) {  // the last one or two, the last mirrored
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
  const ByteLevels to_byte(p.black, p.white);
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

}  // namespace esf
