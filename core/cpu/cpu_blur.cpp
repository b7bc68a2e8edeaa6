#include "core/cpu/cpu_blur.hpp"

#include <algorithm>
#include <vector>

#include "core/cpu/simd_kernels.hpp"
#include "esframe/base/sizes.hpp"

namespace esf {
namespace {

// Sums of up to 257 bytes fit u16 (255 * 257 = 65535): twice the lanes of u32, which wider
// windows take.
constexpr int kMaxU16Taps = 257;

// The divisor of the u16 sums as a multiply where one is exact; u32 sums divide by the taps.
template <typename Sum>
auto divisorFor(int taps) {
  if constexpr (sizeof(Sum) == 2)
    return simd::u16Divider(uint32_t(taps));
  else
    return uint32_t(taps);
}

// One thread's horizontal pass of single rows: the row widened with `half` edge pixels repeated
// on both sides (the reference's clamped coordinates), summed along x by the doubling window
// kernel, divided; alpha kept.
template <typename Sum, typename Divisor>
class HorizontalRows {
 public:
  HorizontalRows(int width, int taps, const Divisor& divisor)
      : w_(width), taps_(taps), divisor_(divisor) {
    const size_t padded_len = saturatingSize(int64_t(width) + taps - 1, 4);
    padded_.resize(padded_len), scratch0_.resize(padded_len), scratch1_.resize(padded_len);
    sums_.resize(4 * size_t(width));
  }
  void run(const uint8_t* row, uint8_t* out) {
    const int half = (taps_ - 1) / 2, n = 4 * w_;
    for (int x = 0; x < half; ++x)
      for (int c = 0; c < 4; ++c) {
        padded_[4 * size_t(x) + size_t(c)] = row[c];
        padded_[4 * size_t(half + w_ + x) + size_t(c)] = row[4 * (w_ - 1) + c];
      }
    simd::widen(row, n, padded_.data() + 4 * half);
    simd::windowSums(padded_.data(), n, taps_, 4, sums_.data(), scratch0_.data(), scratch1_.data());
    simd::divideRounded(sums_.data(), divisor_, n, out);
    simd::copyAlpha(row, out, w_);  // alpha is not blurred: each pixel keeps its own
  }

 private:
  int w_, taps_;
  Divisor divisor_;
  std::vector<Sum> padded_, scratch0_, scratch1_, sums_;
};

// One iteration, both passes fused per band: each thread keeps the horizontal results of the
// last taps + 1 rows in a ring (so no full-frame intermediate goes through memory) and slides
// the vertical window of row sums over them. Ring slot of row index i (unclamped): i mod
// (taps + 1), holding the horizontal pass of row clamp(i).
template <typename Sum, typename Divisor>
void blurOnce(const RgbaImage& in, RgbaImage& out, int taps, const Divisor& divisor,
              RowPool& pool) {
  const int half = (taps - 1) / 2, h = in.height, n = in.width * 4, slots = taps + 1;
  pool.forEachBand(h, [&](int begin, int end, int) {
    HorizontalRows<Sum, Divisor> horizontal(in.width, taps, divisor);
    // taps is not bounded by the frame (up to 2^20): saturated, a too large ring is refused
    // (std::length_error) instead of wrapping on a 32-bit size_t.
    std::vector<uint8_t> ring(saturatingSize(slots, n));
    auto slot = [&](int i) { return ring.data() + size_t(((i % slots) + slots) % slots) * n; };
    auto fill = [&](int i) { horizontal.run(in.at(0, std::clamp(i, 0, h - 1)), slot(i)); };
    std::vector<Sum> sums(size_t(n), 0);
    for (int i = begin - half; i <= begin + half; ++i) {
      fill(i);
      simd::addBytes(sums.data(), slot(i), n);
    }
    for (int y = begin; y < end; ++y) {
      simd::divideRounded(sums.data(), divisor, n, out.at(0, y));
      simd::copyAlpha(in.at(0, y), out.at(0, y), in.width);
      if (y + 1 < end) {
        fill(y + half + 1);
        simd::slideSums(sums.data(), slot(y + half + 1), slot(y - half), n);
      }
    }
  });
}

// Iterations alternate between out and scratch, ending in out; a pass never reads the image it
// writes.
template <typename Sum>
void blurWith(const RgbaImage& in, int taps, int iterations, RowPool& pool, RgbaImage& out,
              RgbaImage& scratch) {
  const auto divisor = divisorFor<Sum>(taps);
  RgbaImage copy;
  const RgbaImage* source = &in;
  for (int i = 0; i < iterations; ++i) {
    RgbaImage& target = (iterations - 1 - i) % 2 == 0 ? out : scratch;
    if (source == &target) source = &(copy = *source);  // `in` given as `out`
    blurOnce<Sum>(*source, target, taps, divisor, pool);
    source = &target;
  }
}

void sizeLike(const RgbaImage& in, RgbaImage& image) {
  if (image.width != in.width || image.height != in.height) image = RgbaImage(in.width, in.height);
}

}  // namespace

void blurCpu(const RgbaImage& in, int filter_dim, int iterations, RowPool& pool, RgbaImage& out,
             RgbaImage& scratch) {
  if (&in != &out) sizeLike(in, out);
  if (iterations > 1) sizeLike(in, scratch);
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
