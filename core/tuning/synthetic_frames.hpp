#pragma once
// The frames the sweeps and the bench run on. Content changes the cost of atomics:
//   random    uniform noise: counts spread over all bins (the easy case for atomics)
//   flat      one colour, a lens cap: every pixel hits the same bin, the contention worst case
//   gradient  smooth ramps in x and y
//   natural   gradient plus +-16 of noise: clustered like a camera frame (the tuning default)
#include <cstdint>
#include <string_view>

#include "esframe/base/result.hpp"
#include "esframe/rgba_image.hpp"
#include "esframe/tuning.hpp"  // FrameContent

namespace esf {

// Deterministic for a given seed.
RgbaImage syntheticFrame(FrameContent content, int width, int height, uint32_t seed = 1);

}  // namespace esf
