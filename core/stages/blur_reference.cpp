#include "core/stages/blur_reference.hpp"

#include <algorithm>

namespace esf {
namespace {

// One pass along x (vertical=false) or y: R, G, B are the rounded mean of filter_dim taps with
// clamped coordinates, A is the centre's.
RgbaImage boxPass(const RgbaImage& in, int filter_dim, bool vertical) {
  RgbaImage out(in.width, in.height);
  const int half = (filter_dim - 1) / 2;
  for (int y = 0; y < in.height; ++y) {
    for (int x = 0; x < in.width; ++x) {
      unsigned sum[3] = {0, 0, 0};
      for (int f = -half; f <= half; ++f) {
        int sx = vertical ? x : std::clamp(x + f, 0, in.width - 1);
        int sy = vertical ? std::clamp(y + f, 0, in.height - 1) : y;
        for (int c = 0; c < 3; ++c) sum[c] += in.at(sx, sy)[c];
      }
      uint8_t* o = out.at(x, y);
      for (int c = 0; c < 3; ++c)
        o[c] = uint8_t((sum[c] + unsigned(filter_dim) / 2) / unsigned(filter_dim));
      o[3] = in.at(x, y)[3];
    }
  }
  return out;
}

}  // namespace

RgbaImage blurReference(const RgbaImage& in, int filter_dim, int iterations) {
  RgbaImage image = in;
  for (int i = 0; i < iterations; ++i) {
    image = boxPass(image, filter_dim, false);
    image = boxPass(image, filter_dim, true);
  }
  return image;
}

}  // namespace esf
