#pragma once
// The plain CPU Sobel sums (core/stages/sobel.hpp) of a width x height luma plane.
#include <cstdint>

#include "core/stats/health_figures.hpp"

namespace esf {

SobelSums sobelReference(const uint8_t* luma, int width, int height, bool full_range,
                         const HealthRegionSpec& regions = {});

// The 3x3 Sobel responses' squared magnitude gx^2 + gy^2 at interior pixel (x, y) of a
// full-range plane (siti's kernels: gx weights columns x-1 and x+1, gy rows y-1 and y+1).
inline uint32_t sobelMagnitudeSquared(const uint8_t* f, int width, int x, int y) {
  auto at = [&](int dx, int dy) { return int(f[size_t(y + dy) * size_t(width) + size_t(x + dx)]); };
  const int gx = at(-1, -1) + 2 * at(-1, 0) + at(-1, 1) - at(1, -1) - 2 * at(1, 0) - at(1, 1);
  const int gy = at(-1, -1) + 2 * at(0, -1) + at(1, -1) - at(-1, 1) - 2 * at(0, 1) - at(1, 1);
  return uint32_t(gx * gx + gy * gy);
}

}  // namespace esf
