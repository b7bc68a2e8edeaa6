#include "core/cpu/cpu_bayer.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace esf {
namespace {

// The levels and gain of one channel, as demosaicReference's toByte.
struct ByteMapping {
  uint32_t black, range, gain;
  uint8_t operator()(uint32_t v) const {
    uint32_t s = v > black ? v - black : 0;
    s = (s * gain + 128) >> 8;
    return uint8_t(std::min<uint32_t>((s * 255 + range / 2) / range, 255));
  }
};

// One output row from its row and the rows above and below (already mirrored). Columns mirror
// the same way: -1 reads 1, width reads width - 2.
void demosaicRow(const uint16_t* up, const uint16_t* row, const uint16_t* down, int width, int y,
                 const DemosaicParams& p, const std::array<ByteMapping, 3>& to_byte, uint8_t* out) {
  auto left = [&](int x) { return x == 0 ? 1 : x - 1; };
  auto right = [&](int x) { return x == width - 1 ? width - 2 : x + 1; };
  for (int x = 0; x < width; ++x, out += 4) {
    const int l = left(x), r = right(x);
    const uint32_t c = row[x];
    const uint32_t edges = (uint32_t(row[l]) + row[r] + up[x] + down[x] + 2) >> 2;
    const uint32_t corners = (uint32_t(up[l]) + up[r] + down[l] + down[r] + 2) >> 2;
    const uint32_t across = (uint32_t(row[l]) + row[r] + 1) >> 1;
    const uint32_t along = (uint32_t(up[x]) + down[x] + 1) >> 1;
    uint32_t red, green, blue;
    switch (cfaColour(p.order, x, y)) {
      case 0:
        red = c, green = edges, blue = corners;
        break;
      case 2:
        red = corners, green = edges, blue = c;
        break;
      default: {
        const bool red_row = cfaColour(p.order, x + 1, y) == 0;
        red = red_row ? across : along, green = c, blue = red_row ? along : across;
      }
    }
    out[0] = to_byte[0](red), out[1] = to_byte[1](green), out[2] = to_byte[2](blue);
    out[3] = 255;
  }
}

}  // namespace

Status demosaicCpu(const std::vector<uint16_t>& raw, int width, int height, const DemosaicParams& p,
                   RgbaImage& out, RowPool& pool, const ImportedRow& on_row) {
  if (Status s = p.validate(width, height); !s) return s;
  if (raw.size() != size_t(width) * size_t(height))
    return fail(ErrorCode::kInvalidArgument, "demosaic: ", std::to_string(raw.size()),
                " values for a ", std::to_string(width), "x", std::to_string(height), " frame");
  if (out.width != width || out.height != height) out = RgbaImage(width, height);
  const uint32_t range = p.white - p.black;
  const std::array<ByteMapping, 3> to_byte = {ByteMapping{p.black, range, p.gain_r},
                                              ByteMapping{p.black, range, 256},
                                              ByteMapping{p.black, range, p.gain_b}};
  auto rowAt = [&](int y) {
    y = y < 0 ? -y : (y >= height ? 2 * height - 2 - y : y);
    return &raw[size_t(y) * size_t(width)];
  };
  pool.forEachStripe(height, RowPool::kStripeRows, [&](int begin, int end, int band) {
    for (int y = begin; y < end; ++y) {
      uint8_t* rgba = out.at(0, y);
      demosaicRow(rowAt(y - 1), rowAt(y), rowAt(y + 1), width, y, p, to_byte, rgba);
      if (on_row) on_row(y, rgba, nullptr, band);
    }
  });
  return Status::success();
}

}  // namespace esf
