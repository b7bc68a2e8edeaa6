#pragma once
// The plain CPU box blur: the same passes, clamping and rounding as the shader (blur.hpp).
#include "esframe/rgba_image.hpp"

namespace esf {

// filter_dim odd. Each iteration: horizontal pass, then vertical pass.
RgbaImage blurReference(const RgbaImage& in, int filter_dim, int iterations);

}  // namespace esf
