#include "core/stages/sobel_reference.hpp"

#include <vector>

namespace esf {

SobelSums sobelReference(const uint8_t* luma, int width, int height, bool full_range,
                         const HealthRegionSpec& regions) {
  SobelSums s;
  s.region_squares.assign(regions.count(), 0);
  if (width < 3 || height < 3) return s;
  std::vector<uint8_t> f(size_t(width) * size_t(height));
  for (size_t i = 0; i < f.size(); ++i) f[i] = uint8_t(fullRangeLuma(luma[i], full_range));
  s.samples = uint64_t(width - 2) * uint64_t(height - 2);
  for (int y = 1; y < height - 1; ++y) {
    for (int x = 1; x < width - 1; ++x) {
      const uint32_t m = sobelMagnitudeSquared(f.data(), width, x, y);
      const uint64_t q = sobelRoot(m);
      s.squares += m;
      s.roots += q;
      s.root_squares.add(q * q);
      forEachRegionAt(regions, width, height, x, y,
                      [&](size_t region) { s.region_squares[region] += m; });
    }
  }
  return s;
}

}  // namespace esf
