#include "core/outputs/scope_layout.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/outputs/graph_layout.hpp"

namespace esf {

const std::array<ScopeTarget, kScopeTargetCount>& scopeTargets() {
  static const std::array<ScopeTarget, kScopeTargetCount> targets = [] {
    // R, G, B of yellow, cyan, green, magenta, red, blue: each 0 or 0.75.
    constexpr std::array<std::array<int, 3>, kScopeTargetCount> kBars = {
        {{1, 1, 0}, {0, 1, 1}, {0, 1, 0}, {1, 0, 1}, {1, 0, 0}, {0, 0, 1}}};
    std::array<ScopeTarget, kScopeTargetCount> t;
    for (size_t k = 0; k < kBars.size(); ++k) {
      const double r = 0.75 * kBars[k][0], g = 0.75 * kBars[k][1], b = 0.75 * kBars[k][2];
      const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
      t[k].cb = int(std::lround(128 + 224 * (b - y) / 1.8556));
      t[k].cr = int(std::lround(128 + 224 * (r - y) / 1.5748));
      t[k].colour = {uint8_t(191 * kBars[k][0]), uint8_t(191 * kBars[k][1]),
                     uint8_t(191 * kBars[k][2]), 255};
    }
    return t;
  }();
  return targets;
}

Result<ScopeCells> scopeCells(const ScopeCounts& counts, GraphScope scope) {
  ScopeCells cells;
  const char* name = "";
  size_t want = 0;
  if (scope == GraphScope::kVectorscope) {
    name = "vectorscope";
    cells = {counts.vectorscope, 256, 1};
    want = 256 * 256;
  } else {
    const bool parade = scope == GraphScope::kParade;
    name = parade ? "parade" : "waveform";
    cells = {parade ? counts.parade : counts.waveform, counts.columns, parade ? 3 : 1};
    want = size_t(std::max(counts.columns, 0)) * 256 * size_t(cells.panels);
  }
  if (cells.counts.empty())
    return fail(ErrorCode::kInvalidArgument, "scope graph: the frame carries no ", name,
                " (PipelineConfig::scopes)");
  if (counts.columns < 1 || counts.columns > kScopeMaxColumns || cells.counts.size() != want)
    return fail(ErrorCode::kInvalidArgument, "scope graph: ", name, " of ",
                std::to_string(cells.counts.size()), " counts for ", std::to_string(counts.columns),
                " columns");
  return cells;
}

uint32_t scopeBlockSum(const ScopeCells& cells, int panel, CellSpan outer, CellSpan inner) {
  uint32_t sum = 0;
  for (int c = outer.first; c < outer.end; ++c)
    for (int l = inner.first; l < inner.end; ++l)
      sum += cells.counts[(size_t(panel) * size_t(cells.columns) + size_t(c)) * 256 + size_t(l)];
  return sum;
}

Result<ScopeScale> scopeScale(const ScopeCells& cells, GraphScope scope, int width, int rows) {
  const int side = std::min(width, rows);
  const int across = scope == GraphScope::kVectorscope ? side : width / cells.panels;
  const int up = scope == GraphScope::kVectorscope ? side : rows;
  auto most = [](int cells, int n) { return n >= cells ? int64_t(1) : int64_t(cells + n - 1) / n; };
  if (across < 1 || up < 1 || most(cells.columns, across) * most(256, up) > kScopeMaxPixelCells)
    return fail(ErrorCode::kInvalidArgument, "scope graph: ", std::to_string(width), "x",
                std::to_string(rows), " pixels are too few for ", std::to_string(cells.columns),
                " columns of 256 levels (a pixel may sum at most ",
                std::to_string(kScopeMaxPixelCells), " cells)");
  // Each distinct pair of spans once: pixels showing the same block have the same count. The
  // vectorscope's two axes have the same spans, so which is outer does not matter here.
  auto spans = [](int n, int count) {
    std::vector<CellSpan> out;
    for (int i = 0; i < n; ++i) {
      const CellSpan s = cellSpan(i, n, count);
      if (out.empty() || out.back().first != s.first || out.back().end != s.end) out.push_back(s);
    }
    return out;
  };
  ScopeScale scale;
  const std::vector<CellSpan> ups = spans(scope == GraphScope::kVectorscope ? side : rows, 256);
  for (int panel = 0; panel < cells.panels; ++panel) {
    const int panel_width = scope == GraphScope::kVectorscope ? side
                            : cells.panels == 3 ? (panel + 1) * width / 3 - panel * width / 3
                                                : width;
    for (const CellSpan& across : spans(panel_width, cells.columns))
      for (const CellSpan& up : ups)
        scale.peak = std::max(scale.peak, scopeBlockSum(cells, panel, across, up));
  }
  if (scale.peak) scale.gain = float(255 * kScopeLinearGain) / float(scale.peak);
  return scale;
}

uint32_t scopeBrightness(uint32_t count, const ScopeScale& scale, bool log_scale) {
  if (count == 0) return 0;
  uint32_t v;
  if (log_scale) {
    v = 255 * logQ8(count + 1) / logQ8(scale.peak + 1);
  } else {
    const float level = float(count) * scale.gain;
    v = level >= 255.0f ? 255 : uint32_t(level);
  }
  return std::max(kScopeMinBrightness, v);
}

}  // namespace esf
