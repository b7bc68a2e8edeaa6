// The scope graphs: waveform, RGB parade, vectorscope (core/outputs/scope_layout.hpp has the
// geometry, brightness and colours; core/outputs/scope_reference.cpp is the CPU reference, rule
// for rule). Per pixel, in this order: the caption strip at the top (graph.frag's), the
// vectorscope's target boxes, the cell's brightness, the grid, the background.
//
// Exactness: positions come from gl_FragCoord in integers (i * cells stays below 2^31: sides up
// to kMaxFrameSide, at most kScopeMaxColumns cells); the linear brightness is one IEEE float
// multiply as on the CPU, the log brightness integers only.
//
// Counts arrive as an R32UI texture kScopeTextureWidth texels wide (fragment-shader storage
// blocks are optional in GLES 3.1): count i at texel (i % TEX_WIDTH, i / TEX_WIDTH).
#ifndef SCOPE  // 1 waveform, 2 parade, 3 vectorscope (GraphScope)
#define SCOPE 1
#endif
#ifndef LOG_SCALE
#define LOG_SCALE 0
#endif
#ifndef TEX_WIDTH
#define TEX_WIDTH 2048
#endif
#ifndef TARGET_COUNT
#define TARGET_COUNT 6
#endif

uniform highp usampler2D counts;
uniform highp usampler2D text;  // R8UI, caption columns: bit r = glyph row r from the top
uniform ivec2 size;             // the viewport in pixels
uniform ivec2 origin;           // its lower-left corner in window coordinates
uniform int columns;            // cells across a panel (256 for the vectorscope)
uniform uint peak;              // the largest count
uniform float gain;             // float(255 * kScopeLinearGain) / float(peak)
uniform uint min_brightness;
uniform vec4 background, grid_color, text_color;
uniform int text_scale, strip_rows, text_columns, grid;
uniform ivec3 grid_levels;
uniform ivec2 targets[TARGET_COUNT];  // Cb, Cr levels
uniform vec4 target_colors[TARGET_COUNT];
uniform int target_box;

in vec2 texcoord;  // unused: positions come from gl_FragCoord
out vec4 color;

uint logQ8(uint v) {
  if (v <= 1u) return 0u;
  int e = findMSB(v);
  uint mantissa = v - (1u << uint(e));
  uint fraction = e >= 8 ? mantissa >> uint(e - 8) : mantissa << uint(8 - e);
  return (uint(e) << 8) + fraction;
}

uint countAt(int i) {
  return texelFetch(counts, ivec2(i % TEX_WIDTH, i / TEX_WIDTH), 0).r;
}

// scope_layout.hpp cellSpan: the cells pixel i of n shows, [first, end).
ivec2 cellSpan(int i, int n, int cells) {
  int first = (i * cells) / n, end = ((i + 1) * cells) / n;
  return ivec2(first, max(end, first + 1));
}

// scope_layout.hpp scopeBlockSum.
uint blockSum(int panel, ivec2 outer, ivec2 inner) {
  uint sum = 0u;
  for (int o = outer.x; o < outer.y; ++o)
    for (int i = inner.x; i < inner.y; ++i) sum += countAt((panel * columns + o) * 256 + i);
  return sum;
}

uint brightness(uint c) {
  if (c == 0u) return 0u;
#if LOG_SCALE
  uint v = 255u * logQ8(c + 1u) / logQ8(peak + 1u);
#else
  float level = float(c) * gain;
  uint v = level >= 255.0 ? 255u : uint(level);
#endif
  return max(min_brightness, v);
}

bool onLevelGrid(int row, int rows) {
  return row == (grid_levels.x * rows) / 256 || row == (grid_levels.y * rows) / 256 ||
         row == (grid_levels.z * rows) / 256;
}

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy) - origin;
  int from_top = size.y - 1 - p.y;
  if (from_top < strip_rows) {
    int tx = p.x - 2 * text_scale, ty = from_top - text_scale;
    bool ink = tx >= 0 && ty >= 0 && ty < 7 * text_scale && tx / text_scale < text_columns &&
               ((texelFetch(text, ivec2(tx / text_scale, 0), 0).r >> uint(ty / text_scale)) &
                1u) != 0u;
    color = ink ? text_color : background;
    return;
  }
  int rows = size.y - strip_rows;
#if SCOPE == 3
  int side = min(size.x, rows);
  int u = p.x - (size.x - side) / 2, v = p.y;
  if (u < 0 || u >= side || v >= side) {
    color = background;
    return;
  }
  for (int k = 0; k < TARGET_COUNT; ++k) {
    int dx = abs(u - (targets[k].x * side) / 256), dy = abs(v - (targets[k].y * side) / 256);
    if (max(dx, dy) == target_box) {
      color = target_colors[k];
      return;
    }
  }
  uint b = brightness(blockSum(0, cellSpan(v, side, 256), cellSpan(u, side, 256)));
  if (b != 0u) {
    float f = float(b) / 255.0;
    color = vec4(f, f, f, 1.0);
  } else if (grid != 0 && (u == side / 2 || v == side / 2)) {
    color = grid_color;
  } else {
    color = background;
  }
#else
  int x = p.x, width = size.x, panel = 0;
#if SCOPE == 2
  while (panel + 1 < 3 && (panel + 1) * size.x / 3 <= p.x) ++panel;
  x = p.x - panel * size.x / 3;
  width = (panel + 1) * size.x / 3 - panel * size.x / 3;
#endif
  uint b = brightness(blockSum(panel, cellSpan(x, width, columns), cellSpan(p.y, rows, 256)));
  if (b != 0u) {
    float f = float(b) / 255.0;
#if SCOPE == 2
    color = vec4(panel == 0 ? f : 0.0, panel == 1 ? f : 0.0, panel == 2 ? f : 0.0, 1.0);
#else
    color = vec4(f, f, f, 1.0);
#endif
  } else if (grid != 0 && onLevelGrid(p.y, rows)) {
    color = grid_color;
  } else {
    color = background;
  }
#endif
}
