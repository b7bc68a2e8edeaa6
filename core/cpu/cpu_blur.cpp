#include "core/cpu/cpu_blur.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "core/cpu/simd_kernels.hpp"

namespace esf {
namespace {

// Sums of up to 257 bytes fit u16 (255 * 257 = 65535): twice the lanes of u32, which wider
// windows take.
constexpr int kMaxU16Taps = 257;

// Each row is widened with `half` edge pixels repeated on both sides (the same taps as the
// reference's clamped coordinates), then summed along x with the doubling window kernel.
// The divisor of the u16 sums as a multiply where one is exact; u32 sums divide by the taps.
template <typename Sum>
auto divisorFor(int taps) {
  if constexpr (sizeof(Sum) == 2)
    return simd::u16Divider(uint32_t(taps));
  else
    return uint32_t(taps);
}

template <typename Sum, typename Divisor>
void horizontalPass(const RgbaImage& in, RgbaImage& out, int taps, const Divisor& divisor,
                    RowPool& pool) {
  const int half = (taps - 1) / 2, w = in.width, n = 4 * w;
  const size_t padded_len = size_t(n) + size_t(taps - 1) * 4;
  pool.forEachBand(in.height, [&](int begin, int end, int) {
    std::vector<Sum> padded(padded_len), scratch0(padded_len), scratch1(padded_len);
    std::vector<Sum> sums(static_cast<size_t>(n));
    for (int y = begin; y < end; ++y) {
      const uint8_t* row = in.at(0, y);
      for (int x = 0; x < half; ++x)
        for (int c = 0; c < 4; ++c) {
          padded[4 * size_t(x) + size_t(c)] = row[c];
          padded[4 * size_t(half + w + x) + size_t(c)] = row[4 * (w - 1) + c];
        }
      simd::widen(row, n, padded.data() + 4 * half);
      simd::windowSums(padded.data(), n, taps, 4, sums.data(), scratch0.data(), scratch1.data());
      simd::divideRounded(sums.data(), divisor, n, out.at(0, y));
      simd::copyAlpha(row, out.at(0, y), w);  // alpha is not blurred: each pixel keeps its own
    }
  });
}

// A sliding window of row sums down each band.
template <typename Sum, typename Divisor>
void verticalPass(const RgbaImage& in, RgbaImage& out, int taps, const Divisor& divisor,
                  RowPool& pool) {
  const int half = (taps - 1) / 2, h = in.height, n = in.width * 4;
  pool.forEachBand(h, [&](int begin, int end, int) {
    auto row = [&](int y) { return in.at(0, std::clamp(y, 0, h - 1)); };
    std::vector<Sum> sums(size_t(n), 0);
    for (int f = -half; f <= half; ++f) simd::addBytes(sums.data(), row(begin + f), n);
    for (int y = begin; y < end; ++y) {
      simd::divideRounded(sums.data(), divisor, n, out.at(0, y));
      simd::copyAlpha(in.at(0, y), out.at(0, y), in.width);
      if (y + 1 < end) simd::slideSums(sums.data(), row(y + half + 1), row(y - half), n);
    }
  });
}

template <typename Sum>
void blurWith(const RgbaImage& in, int taps, int iterations, RowPool& pool, RgbaImage& out,
              RgbaImage& scratch) {
  const auto divisor = divisorFor<Sum>(taps);
  horizontalPass<Sum>(in, scratch, taps, divisor, pool);
  verticalPass<Sum>(scratch, out, taps, divisor, pool);
  for (int i = 1; i < iterations; ++i) {
    horizontalPass<Sum>(out, scratch, taps, divisor, pool);
    verticalPass<Sum>(scratch, out, taps, divisor, pool);
  }
}

void sizeLike(const RgbaImage& in, RgbaImage& image) {
  if (image.width != in.width || image.height != in.height) image = RgbaImage(in.width, in.height);
}

}  // namespace

void blurCpu(const RgbaImage& in, int filter_dim, int iterations, RowPool& pool, RgbaImage& out,
             RgbaImage& scratch) {
  sizeLike(in, out);
  sizeLike(in, scratch);
  if (filter_dim <= kMaxU16Taps)
    blurWith<uint16_t>(in, filter_dim, iterations, pool, out, scratch);
  else
    blurWith<uint32_t>(in, filter_dim, iterations, pool, out, scratch);
}

RgbaImage blurCpu(const RgbaImage& in, int filter_dim, int iterations, RowPool& pool) {
  RgbaImage out, scratch;
  blurCpu(in, filter_dim, iterations, pool, out, scratch);
  return out;
}

}  // namespace esf
