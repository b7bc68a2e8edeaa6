// The CPU reference of glsl_es/scope.frag: the same per-pixel rule, in the same order.
#include <algorithm>
#include <cstdlib>

#include "core/outputs/bitmap_font.hpp"
#include "core/outputs/scope_renderer.hpp"

namespace esf {
namespace {

bool onLevelGrid(int row, int rows) {
  for (int level : kScopeGridLevels)
    if (row == (level * rows) / 256) return true;
  return false;
}

}  // namespace

Result<RgbaImage> renderScopeReference(const ScopeCounts& counts, int width, int height,
                                       const GraphOptions& options, const GraphLabels& labels,
                                       uint8_t background_alpha) {
  Result<ScopeCells> found = scopeCells(counts, options.scope);
  if (!found) return found.error();
  const ScopeCells& cells = found.value();
  const GraphLayout layout = graphLayout(options, width, height, labels);
  Result<ScopeScale> scaled = scopeScale(cells, options.scope, width, height - layout.strip_rows);
  if (!scaled) return scaled.error();
  const ScopeScale& scale = scaled.value();
  const std::array<uint8_t, 4> background = {0, 0, 0, background_alpha};
  const int rows = height - layout.strip_rows;
  const int side = std::min(width, rows);
  const int box = layout.grid ? scopeTargetBox(side) : -1;
  auto vectorscope = [&](int x, int row, std::array<uint8_t, 4>& colour) {
    const int u = x - (width - side) / 2, v = row;
    if (u < 0 || u >= side || v >= side) return;
    const ScopeTarget* target = nullptr;
    for (const ScopeTarget& t : scopeTargets())
      if (!target &&
          std::max(std::abs(u - (t.cb * side) / 256), std::abs(v - (t.cr * side) / 256)) == box)
        target = &t;
    const uint32_t b =
        scopeBrightness(scopeBlockSum(cells, 0, cellSpan(v, side, 256), cellSpan(u, side, 256)),
                        scale, options.log_scale);
    if (target)
      colour = target->colour;
    else if (b != 0)
      colour = {uint8_t(b), uint8_t(b), uint8_t(b), 255};
    else if (layout.grid && (u == side / 2 || v == side / 2))
      colour = kGraphGridColour;
  };
  auto waveform_or_parade = [&](int x, int row, std::array<uint8_t, 4>& colour) {
    int px = x, panel_width = width, panel = 0;
    if (cells.panels == 3) {
      while (panel + 1 < 3 && (panel + 1) * width / 3 <= x) ++panel;
      px = x - panel * width / 3;
      panel_width = (panel + 1) * width / 3 - panel * width / 3;
    }
    const uint32_t b =
        scopeBrightness(scopeBlockSum(cells, panel, cellSpan(px, panel_width, cells.columns),
                                      cellSpan(row, rows, 256)),
                        scale, options.log_scale);
    if (b != 0) {
      colour = {uint8_t(b), uint8_t(b), uint8_t(b), 255};
      if (cells.panels == 3)
        for (int c = 0; c < 3; ++c)
          if (c != panel) colour[size_t(c)] = 0;
    } else if (layout.grid && onLevelGrid(row, rows)) {
      colour = kGraphGridColour;
    }
  };
  if (options.scope == GraphScope::kVectorscope)
    return paintGraphReference(layout, width, height, labels.caption, background, vectorscope);
  return paintGraphReference(layout, width, height, labels.caption, background, waveform_or_parade);
}

}  // namespace esf
