#include "core/stages/demosaic_reference.hpp"

#include <algorithm>
#include <string>

namespace esf {
namespace {

// Mirror without repeating the edge: -1 -> 1, n -> n - 2 (n >= 2).
int mirror(int i, int n) {
  if (i < 0) return -i;
  if (i >= n) return 2 * n - 2 - i;
  return i;
}

}  // namespace

uint8_t demosaicLevel(uint32_t v, uint32_t gain, const DemosaicParams& p) {
  uint32_t s = v > p.black ? v - p.black : 0;
  s = (s * gain + 128) >> 8;
  const uint32_t range = p.white - p.black;
  return uint8_t(std::min<uint32_t>((s * 255 + range / 2) / range, 255));
}

Status DemosaicParams::validate(int width, int height) const {
  if (width < 2 || height < 2)
    return fail(ErrorCode::kInvalidArgument, "demosaic: a Bayer frame must be at least 2x2, got ",
                std::to_string(width), "x", std::to_string(height));
  if (bit_depth < 8 || bit_depth > 16)
    return fail(ErrorCode::kInvalidArgument, "demosaic: bit depth ", std::to_string(bit_depth),
                " is outside 8..16");
  if (white <= black || white >= (1u << bit_depth))
    return fail(ErrorCode::kInvalidArgument, "demosaic: white level ", std::to_string(white),
                " must be above the black level ", std::to_string(black), " and below 2^",
                std::to_string(bit_depth));
  if (gain_r < 1 || gain_r > 4096 || gain_b < 1 || gain_b > 4096)
    return fail(ErrorCode::kInvalidArgument,
                "demosaic: white balance gains must be in 1..4096 (256 = 1.0)");
  return {};
}

Result<RgbaImage> demosaicReference(const std::vector<uint16_t>& raw, int width, int height,
                                    const DemosaicParams& p) {
  if (Status s = p.validate(width, height); !s) return s.error();
  if (raw.size() != size_t(width) * size_t(height))
    return fail(ErrorCode::kInvalidArgument, "demosaic: ", std::to_string(raw.size()),
                " values for a ", std::to_string(width), "x", std::to_string(height), " frame");
  auto at = [&](int x, int y) -> uint32_t {
    return raw[size_t(mirror(y, height)) * size_t(width) + size_t(mirror(x, width))];
  };
  RgbaImage out(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const uint32_t c = at(x, y);
      const uint32_t edges = (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1) + 2) >> 2;
      const uint32_t corners =
          (at(x - 1, y - 1) + at(x + 1, y - 1) + at(x - 1, y + 1) + at(x + 1, y + 1) + 2) >> 2;
      const uint32_t across = (at(x - 1, y) + at(x + 1, y) + 1) >> 1;
      const uint32_t along = (at(x, y - 1) + at(x, y + 1) + 1) >> 1;
      uint32_t rgb[3];
      switch (cfaColour(p.order, x, y)) {
        case 0:
          rgb[0] = c, rgb[1] = edges, rgb[2] = corners;
          break;
        case 2:
          rgb[0] = corners, rgb[1] = edges, rgb[2] = c;
          break;
        default:  // G: its row holds R (then the column holds B) or B
          const bool red_row = cfaColour(p.order, x + 1, y) == 0;
          rgb[0] = red_row ? across : along, rgb[1] = c, rgb[2] = red_row ? along : across;
      }
      uint8_t* px = out.at(x, y);
      px[0] = demosaicLevel(rgb[0], p.gain_r, p);
      px[1] = demosaicLevel(rgb[1], 256, p);
      px[2] = demosaicLevel(rgb[2], p.gain_b, p);
      px[3] = 255;
    }
  return out;
}

}  // namespace esf
