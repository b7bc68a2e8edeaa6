#include "core/cpu/cpu_blur.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/cpu/simd_kernels.hpp"

namespace esf {
namespace {

// Alpha is not blurred: each output pixel keeps its input's.
void copyAlpha(const uint8_t* in, uint8_t* out, int width) {
  for (int x = 0; x < width; ++x) out[4 * x + 3] = in[4 * x + 3];
}

// Each row is copied with `half` edge pixels repeated on both sides, so the window slides over
// plain memory: the same taps as the reference's clamped coordinates.
void horizontalPass(const RgbaImage& in, RgbaImage& out, int filter_dim, RowPool& pool) {
  const int half = (filter_dim - 1) / 2, w = in.width;
  pool.forEachBand(in.height, [&](int begin, int end, int) {
    std::vector<uint32_t> sums(size_t(w) * 4);
    std::vector<uint8_t> padded(size_t(w + 2 * half + 1) * 4);
    for (int y = begin; y < end; ++y) {
      const uint8_t* row = in.at(0, y);
      for (int x = -half; x < w + half + 1; ++x)
        std::memcpy(&padded[4 * size_t(x + half)], row + 4 * std::clamp(x, 0, w - 1), 4);
      const uint8_t* p = padded.data();  // p[4 (x + half) + c] is the clamped pixel x
      uint32_t s0 = 0, s1 = 0, s2 = 0;
      for (int f = 0; f < filter_dim; ++f) s0 += p[4 * f], s1 += p[4 * f + 1], s2 += p[4 * f + 2];
      uint32_t* o = sums.data();
      for (int x = 0; x < w; ++x, o += 4) {
        o[0] = s0, o[1] = s1, o[2] = s2;
        const uint8_t* add = p + 4 * size_t(x + filter_dim);  // pixel x + half + 1
        const uint8_t* sub = p + 4 * size_t(x);               // pixel x - half
        s0 += uint32_t(add[0]) - sub[0];
        s1 += uint32_t(add[1]) - sub[1];
        s2 += uint32_t(add[2]) - sub[2];
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
