#pragma once
// The CPU executor's separable box blur, equal to blurReference (core/stages/blur_reference.hpp):
// per iteration a horizontal then a vertical pass; R, G, B the rounded mean of `filter_dim`
// clamped taps, A the centre's. Along x, window sums by doubling (O(log taps) vector adds per
// value); along y, a sliding window of row sums (O(1)), fused per band over a small ring of
// horizontal results. Sums are u16 up to 257 taps, else u32.
#include "core/cpu/row_pool.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

// filter_dim odd and positive.
RgbaImage blurCpu(const RgbaImage& in, int filter_dim, int iterations, RowPool& pool);
// The same into `out`, with `scratch` for the pass between: both are given in's size, their
// storage reused when they have it already (no allocation per frame). `in` may be `out` (then
// copied once), not `scratch`; scratch is only used for several iterations.
void blurCpu(const RgbaImage& in, int filter_dim, int iterations, RowPool& pool, RgbaImage& out,
             RgbaImage& scratch);

}  // namespace esf
