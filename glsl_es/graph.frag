// The histogram graph (seed histogram part 2, with modes and decorations). Per pixel, in this
// order: the caption strip at the top (a bitmap font's columns from a texture), the clip
// markers at both edges, the bars (a 4-bit mask of the channels whose bar reaches the pixel
// picks one of 16 colours), the quarter grid, the background. core/outputs/graph_layout.hpp
// has the geometry; core/outputs/graph_reference.cpp is the CPU reference, rule for rule.
//
// Exactness: positions come from gl_FragCoord (pixel centres, not interpolated) in integers:
// bin = ((2x + 1) * BINS) / (2 * width). Linear bars compare count * scale * rows > row + 0.5,
// each product a single IEEE float multiply as on the CPU; log bars compare integers.
//
// Counts and scales arrive as textures (a GPU-side copy of the histogram and scale buffers):
// fragment-shader storage blocks are optional in GLES 3.1 and absent on some embedded GPUs.
#ifndef BINS
#define BINS 256
#endif
#ifndef CHANNELS
#define CHANNELS 4
#endif
#ifndef MODE  // 0 overlay, 1 parade, 2 luma
#define MODE 0
#endif
#ifndef LOG_SCALE
#define LOG_SCALE 0
#endif

uniform highp usampler2D counts;  // R32UI, BINS * CHANNELS x 1, counts[bin * CHANNELS + c]
// R32UI, 4 * CHANNELS x 1: the scale stage's buffer, { maxCount, numerator, denominator,
// float scale } per channel (core/stages/scale.hpp); the float is word 3.
uniform highp usampler2D scales;
uniform highp usampler2D text;    // R8UI, caption columns: bit r = glyph row r from the top
uniform ivec2 size;               // the viewport in pixels
uniform ivec2 origin;             // its lower-left corner in window coordinates
uniform uint channel_bit[4];      // the mask bit of each channel (r 1, g 2, b 4, l 8)
uniform int luma_channel;         // MODE 2: the channel drawn
uniform vec4 colors[16];          // colors[0]: the background
uniform vec4 grid_color, text_color, marker_color;
uniform int text_scale, strip_rows, text_columns, marker_width, grid;
uniform ivec2 clip_rows;          // marker heights: low end, high end

in vec2 texcoord;  // interpolated, unused: the exact pixel-centre value is rebuilt below
out vec4 color;

// core/outputs/graph_layout.hpp logQ8: Mitchell's log2 with 8 fraction bits.
uint logQ8(uint v) {
  if (v <= 1u) return 0u;
  int e = findMSB(v);
  uint mantissa = v - (1u << uint(e));
  uint fraction = e >= 8 ? mantissa >> uint(e - 8) : mantissa << uint(8 - e);
  return (uint(e) << 8) + fraction;
}

bool reaches(int c, int bin, int row, int rows) {
  uint count = texelFetch(counts, ivec2(bin * CHANNELS + c, 0), 0).r;
#if LOG_SCALE
  uint log_max = logQ8(texelFetch(scales, ivec2(4 * c, 0), 0).r + 1u);
  return uint(2 * row + 1) * log_max < uint(2 * rows) * logQ8(count + 1u);
#else
  float height = float(count) * uintBitsToFloat(texelFetch(scales, ivec2(4 * c + 3, 0), 0).r);
  return height * float(rows) > float(row) + 0.5;
#endif
}

bool onGrid(int x, int width, int row, int rows) {
  for (int k = 1; k <= 3; ++k)
    if (x == k * width / 4 || row == k * rows / 4) return true;
  return false;
}

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy) - origin;
  int from_top = size.y - 1 - p.y;
  if (from_top < strip_rows) {
    int tx = p.x - 2 * text_scale, ty = from_top - text_scale;
    bool ink = tx >= 0 && ty >= 0 && ty < 7 * text_scale && tx / text_scale < text_columns &&
               ((texelFetch(text, ivec2(tx / text_scale, 0), 0).r >> uint(ty / text_scale)) &
                1u) != 0u;
    color = ink ? text_color : colors[0];
    return;
  }
  if ((p.x < marker_width && p.y < clip_rows.x) ||
      (p.x >= size.x - marker_width && p.y < clip_rows.y)) {
    color = marker_color;
    return;
  }
  int rows = size.y - strip_rows;
  int x = p.x, width = size.x, first = 0, end = CHANNELS;
#if MODE == 1
  int k = 0;  // the panel whose left edge k * width / CHANNELS is the last at or left of x
  while (k + 1 < CHANNELS && (k + 1) * size.x / CHANNELS <= p.x) ++k;
  x = p.x - k * size.x / CHANNELS;
  width = (k + 1) * size.x / CHANNELS - k * size.x / CHANNELS;
  first = k;
  end = k + 1;
#elif MODE == 2
  first = luma_channel;
  end = luma_channel + 1;
#endif
  int bin = clamp(((2 * x + 1) * BINS) / (2 * width), 0, BINS - 1);
  uint mask = 0u;
  for (int c = first; c < end; ++c)
    if (reaches(c, bin, p.y, rows)) mask |= channel_bit[c];
  if (mask != 0u)
    color = colors[int(mask)];
  else if (grid != 0 && onGrid(x, width, p.y, rows))
    color = grid_color;
  else
    color = colors[0];
}
