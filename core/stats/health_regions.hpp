#pragma once
// The regions of HealthConfig (a grid of cells, then rectangles) and where they lie on a frame.
// The frame difference adds each region's luma and changed pixels and the Sobel pass its squared
// magnitudes, in the passes that make the frame's sums (core/stages/frame_difference.hpp,
// sobel.hpp); the figures come from those sums and the spans here.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "esframe/health.hpp"

namespace esf {

// What the stages need of the regions: the same for every frame size.
struct HealthRegionSpec {
  int columns = 0, rows = 0;
  std::vector<HealthRegion> rois;
  uint32_t change_level = 16;  // a pixel changed when |Y - P| > change_level
  static HealthRegionSpec of(const HealthConfig& config);
  size_t cells() const { return size_t(columns) * size_t(rows); }
  size_t count() const { return cells() + rois.size(); }
};

// Calls f(index) for every region that contains pixel (x, y) of a width x height frame: the
// per-pixel definition the plain references use (the executor walks spans, the shaders cells).
template <typename F>
void forEachRegionAt(const HealthRegionSpec& spec, int width, int height, int x, int y, F&& f) {
  if (spec.cells()) {
    const int64_t column = int64_t(x) * spec.columns / width;
    const int64_t row = int64_t(y) * spec.rows / height;
    f(size_t(row * spec.columns + column));
  }
  for (size_t i = 0; i < spec.rois.size(); ++i) {
    const HealthRegion& r = spec.rois[i];
    if (x >= r.x && y >= r.y && x < int64_t(r.x) + r.width && y < int64_t(r.y) + r.height)
      f(spec.cells() + i);
  }
}

// A region on one frame: columns [x0, x1) of rows [y0, y1), clipped to the frame.
struct RegionSpan {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// Every region's span on a width x height frame: the cells in row order, then the rectangles.
// Cell c of C covers the columns x with x * C / width == c, which start at ceil(c * width / C).
std::vector<RegionSpan> healthRegionSpans(const HealthRegionSpec& spec, int width, int height);
uint64_t spanPixels(const RegionSpan& s);
// Its pixels one in from every edge of the frame: those with a Sobel response.
uint64_t spanInteriorPixels(const RegionSpan& s, int width, int height);

}  // namespace esf
