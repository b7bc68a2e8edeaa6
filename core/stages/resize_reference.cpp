#include "core/stages/resize_reference.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace esf {

RgbaImage resizeReference(const RgbaImage& in, int out_w, int out_h) {
  // Units per output pixel (a, b) and per source pixel (a', b'), see resize.hpp.
  const uint32_t gx = uint32_t(std::gcd(in.width, out_w)),
                 gy = uint32_t(std::gcd(in.height, out_h));
  const uint32_t a = uint32_t(in.width) / gx, ap = uint32_t(out_w) / gx;
  const uint32_t b = uint32_t(in.height) / gy, bp = uint32_t(out_h) / gy;
  const uint32_t n = a * b;
  RgbaImage out(out_w, out_h);
  for (int oy = 0; oy < out_h; ++oy) {
    const uint32_t lo_y = uint32_t(oy) * b, hi_y = lo_y + b;
    for (int ox = 0; ox < out_w; ++ox) {
      const uint32_t lo_x = uint32_t(ox) * a, hi_x = lo_x + a;
      uint32_t sum[4] = {0, 0, 0, 0};
      for (uint32_t y = lo_y / bp; y <= (hi_y - 1) / bp; ++y) {
        const uint32_t wy = std::min(hi_y, (y + 1) * bp) - std::max(lo_y, y * bp);
        for (uint32_t x = lo_x / ap; x <= (hi_x - 1) / ap; ++x) {
          const uint32_t wx = std::min(hi_x, (x + 1) * ap) - std::max(lo_x, x * ap);
          const uint8_t* px = in.at(int(x), int(y));
          for (int c = 0; c < 4; ++c) sum[c] += wx * wy * px[c];
        }
      }
      for (int c = 0; c < 4; ++c) out.at(ox, oy)[c] = uint8_t((sum[c] + n / 2) / n);
    }
  }
  return out;
}

}  // namespace esf
