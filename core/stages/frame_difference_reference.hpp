#pragma once
// The plain CPU frame difference (core/stages/frame_difference.hpp): one luma frame against the
// previous one and the freeze reference, and its histogram. Planes are width x height bytes.
#include <cstdint>

#include "core/stats/health_figures.hpp"

namespace esf {

// previous and reference null: the first frame (both are the frame itself).
FrameDifferenceSums frameDifferenceReference(const uint8_t* luma, const uint8_t* previous,
                                             const uint8_t* reference, int width, int height,
                                             bool full_range, const HealthRegionSpec& regions = {});

}  // namespace esf
