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
  const std::vector<uint8_t> text = textColumns(labels.caption);
  const std::array<uint8_t, 4> background = {0, 0, 0, background_alpha};
  const int rows = height - layout.strip_rows;
  const int side = std::min(width, rows);
  const int box = layout.grid ? scopeTargetBox(side) : -1;
  RgbaImage out(width, height);
  for (int row = 0; row < height; ++row) {  // row counted from the bottom, as GL does
    for (int x = 0; x < width; ++x) {
      std::array<uint8_t, 4> colour = background;
      const int from_top = height - 1 - row;
      if (from_top < layout.strip_rows) {
        if (captionInk(layout, text, x, from_top)) colour = kGraphTextColour;
      } else if (options.scope == GraphScope::kVectorscope) {
        const int u = x - (width - side) / 2, v = row;
        if (u >= 0 && u < side && v < side) {
          const ScopeTarget* target = nullptr;
          for (const ScopeTarget& t : scopeTargets())
            if (!target && std::max(std::abs(u - (t.cb * side) / 256),
                                    std::abs(v - (t.cr * side) / 256)) == box)
              target = &t;
          const uint32_t b = scopeBrightness(
              scopeBlockSum(cells, 0, cellSpan(v, side, 256), cellSpan(u, side, 256)), scale,
              options.log_scale);
          if (target)
            colour = target->colour;
          else if (b != 0)
            colour = {uint8_t(b), uint8_t(b), uint8_t(b), 255};
          else if (layout.grid && (u == side / 2 || v == side / 2))
            colour = kGraphGridColour;
        }
      } else {
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
      }
      std::copy(colour.begin(), colour.end(), out.at(x, height - 1 - row));
    }
  }
  return out;
}

}  // namespace esf
