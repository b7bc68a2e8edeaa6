#include "core/cpu/cpu_blur.hpp"

#include <algorithm>
#include <vector>

#include "core/cpu/simd_kernels.hpp"

namespace esf {
namespace {

// Alpha is not blurred: each output pixel keeps its input's.
void copyAlpha(const uint8_t* in, uint8_t* out, int width) {
  for (int x = 0; x < width; ++x) out[4 * x + 3] = in[4 * x + 3];
}

void horizontalPass(const RgbaImage& in, RgbaImage& out, int filter_dim, RowPool& pool) {
  const int half = (filter_dim - 1) / 2, w = in.width;
  pool.forEachBand(in.height, [&](int begin, int end, int) {
    std::vector<uint32_t> sums(size_t(w) * 4);
    for (int y = begin; y < end; ++y) {
      const uint8_t* row = in.at(0, y);
      auto at = [&](int x, int c) { return uint32_t(row[4 * std::clamp(x, 0, w - 1) + c]); };
      uint32_t s[3] = {0, 0, 0};
      for (int f = -half; f <= half; ++f)
        for (int c = 0; c < 3; ++c) s[c] += at(f, c);
      for (int x = 0; x < w; ++x) {
        for (int c = 0; c < 3; ++c) {
          sums[4 * size_t(x) + size_t(c)] = s[c];
          s[c] += at(x + half + 1, c) - at(x - half, c);
        }
      }
      simd::divideRounded(sums.data(), uint32_t(filter_dim), 4 * w, out.at(0, y));
      copyAlpha(row, out.at(0, y), w);
    }
  });
}

void verticalPass(const RgbaImage& in, RgbaImage& out, int filter_dim, RowPool& pool) {
  const int half = (filter_dim - 1) / 2, h = in.height, n = in.width * 4;
  pool.forEachBand(h, [&](int begin, int end, int) {
    auto row = [&](int y) { return in.at(0, std::clamp(y, 0, h - 1)); };
    std::vector<uint32_t> sums(size_t(n), 0);
    for (int f = -half; f <= half; ++f) simd::addBytes(sums.data(), row(begin + f), n);
    for (int y = begin; y < end; ++y) {
      simd::divideRounded(sums.data(), uint32_t(filter_dim), n, out.at(0, y));
      copyAlpha(in.at(0, y), out.at(0, y), in.width);
      if (y + 1 < end) simd::slideSums(sums.data(), row(y + half + 1), row(y - half), n);
    }
  });
}

}  // namespace

RgbaImage blurCpu(const RgbaImage& in, int filter_dim, int iterations, RowPool& pool) {
  RgbaImage image = in, scratch(in.width, in.height);
  for (int i = 0; i < iterations; ++i) {
    horizontalPass(image, scratch, filter_dim, pool);
    verticalPass(scratch, image, filter_dim, pool);
  }
  return image;
}

}  // namespace esf
