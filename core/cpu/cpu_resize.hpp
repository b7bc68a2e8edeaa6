#pragma once
// The CPU executor's area-average downscale, equal to resizeReference
// (core/stages/resize_reference.hpp). The integer weights are separable (wx * wy), so each
// source row is first summed along x with wx, then the rows are summed with wy: the same exact
// integer total, in O(taps) per pixel instead of O(taps^2).
#include "core/cpu/row_pool.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

// The sizes must pass checkResizeSize (core/stages/resize.hpp).
RgbaImage resizeCpu(const RgbaImage& in, int out_w, int out_h, RowPool& pool);
// The same into `out` (given the output size; its storage reused when it has it). `out` must
// not be `in`. An exact 2:1 in both directions takes its own vector kernel.
void resizeCpu(const RgbaImage& in, int out_w, int out_h, RowPool& pool, RgbaImage& out);

}  // namespace esf
