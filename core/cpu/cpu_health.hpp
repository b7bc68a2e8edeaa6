#pragma once
// The CPU executor's health kernels, split over the row pool's bands: the frame difference and
// the Sobel sums, equal to frameDifferenceReference and sobelReference (core/stages/).
#include <cstdint>

#include "core/cpu/row_pool.hpp"
#include "core/stats/health.hpp"

namespace esf {

// One frame difference's planes, each width x height: the luma Y, the previous P and the
// reference R (P = R = Y on the first frame), and F(Y), F(P) (fullRangeLuma: for full range the
// same pointers as Y and P).
struct DifferencePlanes {
  const uint8_t* luma = nullptr;
  const uint8_t* previous = nullptr;
  const uint8_t* reference = nullptr;
  const uint8_t* stretched = nullptr;
  const uint8_t* stretched_previous = nullptr;
};
// The frame difference and the Sobel sums (of planes.stretched), in one pass over the rows: each
// row read once for both while it is in cache. count_histogram false: the histogram stays zero
// (for a caller that has Y's counts already).
void healthSumsCpu(const DifferencePlanes& planes, int width, int height,
                   const HealthRegionSpec& regions, bool count_histogram, RowPool& pool,
                   FrameDifferenceSums& difference, SobelSums& sobel);
// out = F(luma) for limited range, width x height.
void stretchLimitedLumaCpu(const uint8_t* luma, int width, int height, uint8_t* out, RowPool& pool);

// Each half of healthSumsCpu from plain planes, stretched into temporaries (previous and
// reference null: the first frame); the stage tests compare them with the references.
FrameDifferenceSums frameDifferenceCpu(const uint8_t* luma, const uint8_t* previous,
                                       const uint8_t* reference, int width, int height,
                                       bool full_range, const HealthRegionSpec& regions,
                                       RowPool& pool);
SobelSums sobelCpu(const uint8_t* luma, int width, int height, bool full_range,
                   const HealthRegionSpec& regions, RowPool& pool);

}  // namespace esf
