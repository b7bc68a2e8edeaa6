#include "core/stats/health_regions.hpp"

#include <algorithm>

namespace esf {
namespace {

// The first of `length` positions whose cell (position * cells / length) is `cell`.
int cellStart(int cell, int cells, int length) {
  return int((int64_t(cell) * length + cells - 1) / cells);
}

}  // namespace

HealthRegionSpec HealthRegionSpec::of(const HealthConfig& config) {
  HealthRegionSpec s;
  s.columns = config.grid_columns;
  s.rows = config.grid_rows;
  s.rois = config.rois;
  s.change_level = config.change_level;
  return s;
}

std::vector<RegionSpan> healthRegionSpans(const HealthRegionSpec& spec, int width, int height) {
  std::vector<RegionSpan> spans;
  spans.reserve(spec.count());
  for (int row = 0; row < spec.rows; ++row) {
    for (int column = 0; column < spec.columns; ++column) {
      spans.push_back({cellStart(column, spec.columns, width), cellStart(row, spec.rows, height),
                       cellStart(column + 1, spec.columns, width),
                       cellStart(row + 1, spec.rows, height)});
    }
  }
  for (const HealthRegion& r : spec.rois) {
    auto clip = [](int64_t v, int limit) { return int(std::clamp<int64_t>(v, 0, limit)); };
    RegionSpan s{clip(r.x, width), clip(r.y, height), clip(int64_t(r.x) + r.width, width),
                 clip(int64_t(r.y) + r.height, height)};
    spans.push_back(s);
  }
  return spans;
}

uint64_t spanPixels(const RegionSpan& s) {
  if (s.x1 <= s.x0 || s.y1 <= s.y0) return 0;
  return uint64_t(s.x1 - s.x0) * uint64_t(s.y1 - s.y0);
}

uint64_t spanInteriorPixels(const RegionSpan& s, int width, int height) {
  return spanPixels({std::max(s.x0, 1), std::max(s.y0, 1), std::min(s.x1, width - 1),
                     std::min(s.y1, height - 1)});
}

}  // namespace esf
