#include "core/cpu/cpu_resize.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include "core/cpu/simd_kernels.hpp"

namespace esf {
namespace {

// The source pixels under output pixel `o` along one axis and their overlap weights, in the
// units of resize.hpp: output o covers [o a, (o+1) a), source s covers [s a', (s+1) a').
struct Footprint {
  uint32_t first = 0;
  std::vector<uint32_t> weights;
};

std::vector<Footprint> footprints(int in_size, int out_size) {
  const uint32_t g = uint32_t(std::gcd(in_size, out_size));
  const uint32_t a = uint32_t(in_size) / g, ap = uint32_t(out_size) / g;
  std::vector<Footprint> out(static_cast<size_t>(out_size));
  for (uint32_t o = 0; o < uint32_t(out_size); ++o) {
    const uint32_t lo = o * a, hi = lo + a;
    out[o].first = lo / ap;
    for (uint32_t s = lo / ap; s <= (hi - 1) / ap; ++s)
      out[o].weights.push_back(std::min(hi, (s + 1) * ap) - std::max(lo, s * ap));
  }
  return out;
}

// row_sums[4 ox + c] = sum over the footprint of wx * source[x][c].
void sumAlongX(const uint8_t* row, const std::vector<Footprint>& xs, uint32_t* row_sums) {
  for (size_t ox = 0; ox < xs.size(); ++ox) {
    uint32_t s[4] = {0, 0, 0, 0};
    const uint8_t* px = row + 4 * size_t(xs[ox].first);
    for (uint32_t w : xs[ox].weights) {
      for (int c = 0; c < 4; ++c) s[c] += w * px[c];
      px += 4;
    }
    for (int c = 0; c < 4; ++c) row_sums[4 * ox + size_t(c)] = s[c];
  }
}

}  // namespace

void resizeCpu(const RgbaImage& in, int out_w, int out_h, RowPool& pool, RgbaImage& out) {
  if (out.width != out_w || out.height != out_h) out = RgbaImage(out_w, out_h);
  if (in.width == 2 * out_w && in.height == 2 * out_h) {  // 2x2 boxes, weights 1, n = 4
    pool.forEachBand(out_h, [&](int begin, int end, int) {
      for (int oy = begin; oy < end; ++oy)
        simd::halveRgbaRow(in.at(0, 2 * oy), in.at(0, 2 * oy + 1), out_w, out.at(0, oy));
    });
    return;
  }
  const std::vector<Footprint> xs = footprints(in.width, out_w), ys = footprints(in.height, out_h);
  const uint32_t n = uint32_t(in.width / std::gcd(in.width, out_w)) *
                     uint32_t(in.height / std::gcd(in.height, out_h));
  const int values = out_w * 4;
  pool.forEachBand(out_h, [&](int begin, int end, int) {
    std::vector<uint32_t> row_sums(static_cast<size_t>(values)), total(static_cast<size_t>(values));
    for (int oy = begin; oy < end; ++oy) {
      std::fill(total.begin(), total.end(), 0u);
      uint32_t y = ys[size_t(oy)].first;
      for (uint32_t wy : ys[size_t(oy)].weights) {
        sumAlongX(in.at(0, int(y++)), xs, row_sums.data());
        simd::addWeighted(total.data(), row_sums.data(), wy, values);
      }
      simd::divideRounded(total.data(), n, values, out.at(0, oy));
    }
  });
}

RgbaImage resizeCpu(const RgbaImage& in, int out_w, int out_h, RowPool& pool) {
  RgbaImage out;
  resizeCpu(in, out_w, out_h, pool, out);
  return out;
}

}  // namespace esf
