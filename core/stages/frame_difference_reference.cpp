#include "core/stages/frame_difference_reference.hpp"

#include <cstdlib>

namespace esf {

FrameDifferenceSums frameDifferenceReference(const uint8_t* luma, const uint8_t* previous,
                                             const uint8_t* reference, int width, int height,
                                             bool full_range, const HealthRegionSpec& regions) {
  FrameDifferenceSums s;
  if (!previous) previous = luma;
  if (!reference) reference = luma;
  s.region_luma.assign(regions.count(), 0);
  s.region_changed.assign(regions.count(), 0);
  for (size_t i = 0, n = size_t(width) * size_t(height); i < n; ++i) {
    const int y = luma[i], p = previous[i], r = reference[i];
    forEachRegionAt(regions, width, height, int(i % size_t(width)), int(i / size_t(width)),
                    [&](size_t region) {
                      s.region_luma[region] += uint64_t(y);
                      if (uint32_t(std::abs(y - p)) > regions.change_level)
                        ++s.region_changed[region];
                    });
    s.sad_previous += uint64_t(std::abs(y - p));
    s.sad_reference += uint64_t(std::abs(y - r));
    const int64_t motion =
        int64_t(fullRangeLuma(uint32_t(y), full_range)) - fullRangeLuma(uint32_t(p), full_range);
    s.motion_sum += motion;
    s.motion_squares += uint64_t(motion * motion);
    ++s.histogram[size_t(y)];
  }
  return s;
}

}  // namespace esf
