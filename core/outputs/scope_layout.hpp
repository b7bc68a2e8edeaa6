#pragma once
// The scope graphs (GraphOptions::scope): geometry, brightness and colours shared by scope.frag's
// host code (ScopeRenderer) and its CPU reference (renderScopeReference), in integers and single
// float multiplies so both draw the same pixels. Rows are counted from the bottom, as GL does.
//
// The caption strip is the histogram graph's (graphLayout: the same text, scale and rows); there
// are no clip markers. Below it, `rows` rows. Along each axis, pixel i of n shows the cells
// cellSpan(i, n, cells) of an axis of `cells` cells, and its count is the sum of the block of
// cells it shows (so no level or column is skipped when the graph is smaller than the scope):
//   waveform     x over the columns, the row (from the bottom) over the 256 levels
//   parade       three panels as the histogram's parade (panel k from k * width / 3 to
//                (k + 1) * width / 3), panel k the waveform of channel k (R, G, B)
//   vectorscope  a side x side square, side = min(width, rows), at x0 = (width - side) / 2 and
//                the bottom; pixel (x0 + u, v) shows Cb over u (right) and Cr over v (up)
// A pixel's brightness b (0..255) from its count c against the largest count p of any pixel of
// the graph (all three panels of the parade), 0 where c is 0, else max(kScopeMinBrightness, v):
//   linear: v = min(255, trunc(float(c) * gain)), gain = float(255 * kScopeLinearGain) / float(p)
//           (so counts from p / kScopeLinearGain up are clipped to full brightness)
//   log:    v = 255 * logQ8(c + 1) / logQ8(p + 1) (graph_layout.hpp's logQ8)
// Colour: (b, b, b) for the waveform and vectorscope, (b, 0, 0), (0, b, 0), (0, 0, b) for the
// parade's R, G, B; the background where c is 0 or outside the square.
// Decorations: grid lines (kGraphGridColour, where c is 0) at rows (L * rows) / 256 for the levels
// L of kScopeGridLevels (waveform, parade), and through the vectorscope's centre, u or v = side /
// 2; over the vectorscope's cells, a box around each 75% colour bar target (scopeTargets()): the
// pixels at Chebyshev distance scopeTargetBox(side) of the target's pixel ((cb * side) / 256,
// (cr * side) / 256), in the bar's own colour.
#include <array>
#include <cstdint>
#include <span>

#include "esframe/base/result.hpp"
#include "esframe/graph_options.hpp"
#include "esframe/scope_data.hpp"

namespace esf {

inline constexpr int kScopeLinearGain = 4;
inline constexpr uint32_t kScopeMinBrightness = 48;                     // a lone pixel still shows
inline constexpr std::array<int, 3> kScopeGridLevels = {16, 128, 235};  // limited range's ends
inline constexpr int kScopeTargetCount = 6;
// The most cells one pixel sums: bounds a fragment's loop (llvmpipe ends loops at 65535 turns)
// and refuses graphs too small to show the scope (a 1x1 vectorscope would sum all 65536 cells).
inline constexpr int64_t kScopeMaxPixelCells = 4096;
// Width of the texture the counts travel in (a GLES 3 minimum of GL_MAX_TEXTURE_SIZE): count i at
// texel (i % width, i / width).
inline constexpr int kScopeTextureWidth = 2048;

// A 75% colour bar target: its Cb and Cr levels and the bar's RGB colour.
struct ScopeTarget {
  int cb = 0, cr = 0;
  std::array<uint8_t, 4> colour{};
};
// Yellow, cyan, green, magenta, red, blue at 75% (R, G, B each 0 or 191), through BT.709's
// limited-range matrix (the vectorscope's for RGB sources): Cb = 128 + 224 (B - Y) / 1.8556,
// Cr = 128 + 224 (R - Y) / 1.5748 with Y = 0.2126 R + 0.7152 G + 0.0722 B, rounded to nearest.
const std::array<ScopeTarget, kScopeTargetCount>& scopeTargets();
inline int scopeTargetBox(int side) {
  return side / 64 > 2 ? side / 64 : 2;
}

// The counts a scope graph draws and how many panels (1, or 3 for the parade).
struct ScopeCells {
  std::span<const uint32_t> counts;
  int columns = 0;  // cells across a panel: the waveform's columns, 256 for the vectorscope
  int panels = 1;
};
// The scope `scope` of `counts`, or an error naming what the frame lacks (its vector empty, or
// a size other than ScopeCounts says).
Result<ScopeCells> scopeCells(const ScopeCounts& counts, GraphScope scope);

// The cells [first, end) that pixel i of n shows along an axis of `cells` cells: from
// floor(i * cells / n) to floor((i + 1) * cells / n), at least one.
struct CellSpan {
  int first = 0, end = 0;
};
inline CellSpan cellSpan(int i, int n, int cells) {
  const int first = int(int64_t(i) * cells / n), end = int(int64_t(i + 1) * cells / n);
  return {first, end > first ? end : first + 1};
}

struct ScopeScale {
  uint32_t peak = 0;  // the largest count of a pixel
  float gain = 0;     // float(255 * kScopeLinearGain) / float(peak), 0 when peak is 0
};
// The scale of `cells` drawn width x rows (the area below the strip), or kInvalidArgument where
// a pixel would sum more than kScopeMaxPixelCells cells.
Result<ScopeScale> scopeScale(const ScopeCells& cells, GraphScope scope, int width, int rows);
// The count a pixel shows: the sum of the counts at (panel * columns + outer) * 256 + inner for
// outer in `outer`, inner in `inner`: the column and the level of a waveform or parade, the Cr
// and the Cb of the vectorscope (its index is cr * 256 + cb).
uint32_t scopeBlockSum(const ScopeCells& cells, int panel, CellSpan outer, CellSpan inner);
uint32_t scopeBrightness(uint32_t count, const ScopeScale& scale, bool log_scale);

}  // namespace esf
