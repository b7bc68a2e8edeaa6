#pragma once
// The plain CPU area-average downscale, the same integer weights as the shader (resize.hpp).
#include "esframe/rgba_image.hpp"

namespace esf {

// The sizes must pass checkResizeSize (resize.hpp).
RgbaImage resizeReference(const RgbaImage& in, int out_w, int out_h);

}  // namespace esf
