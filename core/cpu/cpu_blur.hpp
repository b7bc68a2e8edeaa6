#pragma once
// The CPU executor's separable box blur, equal to blurReference (core/stages/blur_reference.hpp):
// per iteration a horizontal then a vertical pass; R, G, B the rounded mean of `filter_dim`
// clamped taps, A the centre's. Sliding-window sums, so the cost does not grow with the taps.
#include "core/cpu/row_pool.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

// filter_dim odd and positive.
RgbaImage blurCpu(const RgbaImage& in, int filter_dim, int iterations, RowPool& pool);

}  // namespace esf
