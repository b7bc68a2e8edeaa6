#pragma once
// The CPU executor's health kernels, split over the row pool's bands: the frame difference and
// the Sobel sums, equal to frameDifferenceReference and sobelReference (core/stages/).
#include <cstdint>

#include "core/cpu/row_pool.hpp"
#include "core/stats/health.hpp"

namespace esf {

// previous and reference null: the first frame.
FrameDifferenceSums frameDifferenceCpu(const uint8_t* luma, const uint8_t* previous,
                                       const uint8_t* reference, int width, int height,
                                       bool full_range, const HealthRegionSpec& regions,
                                       RowPool& pool);
SobelSums sobelCpu(const uint8_t* luma, int width, int height, bool full_range,
                   const HealthRegionSpec& regions, RowPool& pool);

}  // namespace esf
