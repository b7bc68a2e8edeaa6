// The box blur's vertical pass from a packed buffer (core/stages/blur.hpp, strategy "split"
// with buffer_intermediate): the horizontal pass (blur_fused.comp, H_ONLY, OUT_BUFFER) left its
// result as one uint per pixel, R in bits 0-7; each invocation owns one column and SEGMENT
// consecutive rows and keeps a running sum of the FILTER_DIM rows of its window. Neighbouring
// invocations own neighbouring columns: a warp reads 128 consecutive bytes per row. The sums
// are two words of 16-bit lanes (R and B, G and A), exact for FILTER_DIM <= 257. The rows that
// leave and the centre are read again from the buffer (cached: read FILTER_DIM rows earlier).
// The output is written as raw 32-bit texels through an r32ui image unit bound to the RGBA8
// texture (the same size class in GLES 3.1): no unorm conversion; with OUT_BUFFER 1, into a
// packed buffer (PackedRgbaBuffer) instead.
// Bit-exact with the CPU reference: (sum + FILTER_DIM / 2) / FILTER_DIM per channel, A carried.
#ifndef SEGMENT
#define SEGMENT 16
#endif
#ifndef WG_X
#define WG_X 64
#endif
#ifndef FILTER_DIM
#define FILTER_DIM 15
#endif
#ifndef OUT_BUFFER
#define OUT_BUFFER 0
#endif
// Rows read ahead per batch (the `prefetch` parameter), 1 .. 16.
#ifndef PREFETCH
#define PREFETCH 1
#endif
// QUAD 1: an invocation owns 4 neighbouring columns, read and written as one uvec4 per row
// (a quarter of the load instructions; width a multiple of 4, so rows start 16-byte aligned).
#ifndef QUAD
#define QUAD 0
#endif
#if QUAD
#define WORD uvec4
const int UNITS = 4;  // pixels per WORD
#else
#define WORD uint
const int UNITS = 1;
#endif
layout(local_size_x = WG_X) in;
layout(std430, binding = 1) readonly buffer Rows { WORD rows[]; };
#if OUT_BUFFER
layout(std430, binding = 0) writeonly buffer Destination { WORD dst[]; };
#else
layout(r32ui, binding = 0) writeonly uniform highp uimage2D u_out;
#endif
uniform ivec2 u_size;

const int OFFSET = (FILTER_DIM - 1) / 2;
const uint LANES = 0x00ff00ffu;

// Column unit x (a pixel, or a quad of them) of row y, rows clamped to the image.
WORD at(int x, int y) {
  return rows[clamp(y, 0, u_size.y - 1) * (u_size.x / UNITS) + x];
}

void main() {
  int x = int(gl_GlobalInvocationID.x);
  int y0 = int(gl_WorkGroupID.y) * SEGMENT;
  if (x >= u_size.x / UNITS || y0 >= u_size.y) return;
  int y1 = min(y0 + SEGMENT, u_size.y);
  WORD rb = WORD(0u), ga = WORD(0u);  // R and B, G and A of the window, 16-bit lanes
  for (int f = -OFFSET; f <= OFFSET; ++f) {
    WORD t = at(x, y0 + f);
    rb += t & LANES;
    ga += (t >> 8) & LANES;
  }
  // Batches of PREFETCH outputs: their entering, leaving and centre rows are read before any
  // is used, so a batch's loads are in flight together (one at a time, the pass waited on the
  // memory's latency for every row, far below the memory's bandwidth).
  for (int y = y0; y < y1; y += PREFETCH) {
    WORD head[PREFETCH], tail[PREFETCH], centre[PREFETCH];
    for (int k = 0; k < PREFETCH; ++k) {
      head[k] = at(x, y + k + OFFSET + 1);
      tail[k] = at(x, y + k - OFFSET);
      centre[k] = at(x, y + k);
    }
    for (int k = 0; k < PREFETCH; ++k) {
      if (y + k >= y1) break;
      WORD r = ((rb & 0xffffu) + uint(FILTER_DIM / 2)) / uint(FILTER_DIM);
      WORD b = ((rb >> 16) + uint(FILTER_DIM / 2)) / uint(FILTER_DIM);
      WORD g = ((ga & 0xffffu) + uint(FILTER_DIM / 2)) / uint(FILTER_DIM);
      WORD v = r | (g << 8) | (b << 16) | (centre[k] & 0xff000000u);
#if OUT_BUFFER
      dst[(y + k) * (u_size.x / UNITS) + x] = v;
#elif QUAD
      for (int c = 0; c < 4; ++c) imageStore(u_out, ivec2(4 * x + c, y + k), uvec4(v[c]));
#else
      imageStore(u_out, ivec2(x, y + k), uvec4(v));
#endif
      // Add the row entering before the one leaving: the unsigned lanes never go below zero.
      rb += head[k] & LANES;
      ga += (head[k] >> 8) & LANES;
      rb -= tail[k] & LANES;
      ga -= (tail[k] >> 8) & LANES;
    }
  }
}
