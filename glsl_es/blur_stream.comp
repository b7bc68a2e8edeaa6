// Both blur passes in one dispatch, streaming down the rows of a tile (core/stages/blur.hpp,
// strategy "stream"). A workgroup of WG_X invocations owns TW = WG_X * COLS output columns and
// TH output rows. It reads the tile's rows one at a time (plus the filter's halo: OFFSET rows
// above and below, OFFSET columns left and right) into a shared row buffer, so each source texel
// is fetched once per tile with coalesced loads, and each output is stored once.
// Per row, each invocation:
//   - horizontal: the rounded FILTER_DIM-tap mean of its COLS neighbouring columns, as a sliding
//     window over the shared row (FILTER_DIM + COLS - 1 shared loads for COLS outputs);
//   - vertical: adds that row's horizontal result to a running sum per column and drops the one
//     FILTER_DIM rows back, kept in a per-column ring in shared memory; once the window is full
//     the output row OFFSET rows back is complete and is stored.
// Channels travel as packed words: R|B and G|A in 16-bit lanes (SWAR); FILTER_DIM * 255 < 65536
// keeps every lane exact, and the sums are added before the leaving tap is subtracted, so no
// lane ever borrows. Bit-exact with the CPU reference: each pass rounds to 8 bits as
// (sum + FILTER_DIM / 2) / FILTER_DIM over clamped taps; A is carried from the centre texel.
// One barrier per row: the row buffer is double-buffered, and the next row's texels are fetched
// into registers while the current row is summed.
#ifndef WG_X
#define WG_X 64
#endif
#ifndef COLS
#define COLS 4
#endif
#ifndef TH
#define TH 64
#endif
#ifndef FILTER_DIM
#define FILTER_DIM 15
#endif
layout(local_size_x = WG_X) in;
uniform highp sampler2D u_image;
layout(rgba8, binding = 0) writeonly uniform highp image2D u_out;

const int OFFSET = (FILTER_DIM - 1) / 2;
const int TW = WG_X * COLS;
const int ROW_TEXELS = TW + FILTER_DIM - 1;
const int LOADS = (ROW_TEXELS + WG_X - 1) / WG_X;  // texels each invocation fetches per row
// A skew of one word per 32 keeps the COLS-strided reads of neighbouring invocations on
// different banks.
const int ROW_WORDS = ROW_TEXELS + ROW_TEXELS / 32 + 1;
shared uint rows[2 * ROW_WORDS];
// Horizontal results, A in the top byte, at (slot * COLS + c) * WG_X + invocation: neighbouring
// invocations on neighbouring banks.
shared uint ring[FILTER_DIM * TW];

const uint LANES = 0x00FF00FFu;

int skewed(int j) { return j + (j >> 5); }

uint packTexel(vec4 t) {
  uvec4 u = uvec4(t * 255.0 + 0.5);
  return u.r | (u.g << 8) | (u.b << 16) | (u.a << 24);
}

// The rounded mean of FILTER_DIM taps in each lane; `ga` carries G in its low lane.
uint roundedMean(uint rb, uint ga, uint alpha) {
  const uint half_dim = uint(FILTER_DIM / 2), dim = uint(FILTER_DIM);
  uint r = ((rb & 0xFFFFu) + half_dim) / dim, b = ((rb >> 16) + half_dim) / dim;
  uint g = ((ga & 0xFFFFu) + half_dim) / dim;
  return r | (g << 8) | (b << 16) | (alpha << 24);
}

void main() {
  ivec2 dims = textureSize(u_image, 0);
  int x0 = int(gl_WorkGroupID.x) * TW, y0 = int(gl_WorkGroupID.y) * TH;
  if (x0 >= dims.x || y0 >= dims.y) return;  // whole workgroups only: barriers stay uniform
  int lid = int(gl_LocalInvocationIndex);
  int first = lid * COLS;  // this invocation's first column within the tile
  int out_rows = min(TH, dims.y - y0);
  int steps = out_rows + FILTER_DIM - 1;

  uint fetched[LOADS];
  for (int m = 0; m < LOADS; ++m) {
    int j = lid + m * WG_X;
    fetched[m] = j < ROW_TEXELS ? packTexel(texelFetch(
                                      u_image, ivec2(clamp(x0 - OFFSET + j, 0, dims.x - 1),
                                                     clamp(y0 - OFFSET, 0, dims.y - 1)),
                                      0))
                                : 0u;
  }
  uint vsum_rb[COLS], vsum_ga[COLS];
  for (int c = 0; c < COLS; ++c) vsum_rb[c] = vsum_ga[c] = 0u;

  for (int i = 0; i < steps; ++i) {
    int half_at = (i & 1) * ROW_WORDS;
    for (int m = 0; m < LOADS; ++m) {
      int j = lid + m * WG_X;
      if (j < ROW_TEXELS) rows[half_at + skewed(j)] = fetched[m];
    }
    barrier();
    if (i + 1 < steps) {  // the next row's fetches overlap this row's sums
      int y = clamp(y0 - OFFSET + i + 1, 0, dims.y - 1);
      for (int m = 0; m < LOADS; ++m) {
        int j = lid + m * WG_X;
        if (j < ROW_TEXELS)
          fetched[m] = packTexel(
              texelFetch(u_image, ivec2(clamp(x0 - OFFSET + j, 0, dims.x - 1), y), 0));
      }
    }
    // Horizontal: the window of column `first`, then slide across this invocation's columns.
    uint rb = 0u, ga = 0u;
    for (int f = 0; f < FILTER_DIM; ++f) {
      uint t = rows[half_at + skewed(first + f)];
      rb += t & LANES;
      ga += (t >> 8) & LANES;
    }
    int slot = i % FILTER_DIM;  // the ring slot of this row, also that of the row leaving
    int done = (i + OFFSET + 1) % FILTER_DIM;  // the slot of output row i - 2 * OFFSET
    for (int c = 0; c < COLS; ++c) {
      if (c > 0) {
        uint enter = rows[half_at + skewed(first + c + FILTER_DIM - 1)];
        uint leave = rows[half_at + skewed(first + c - 1)];
        rb += enter & LANES;
        ga += (enter >> 8) & LANES;
        rb -= leave & LANES;
        ga -= (leave >> 8) & LANES;
      }
      uint centre = rows[half_at + skewed(first + c + OFFSET)];
      uint h = roundedMean(rb, ga, centre >> 24);
      uint old = ring[(slot * COLS + c) * WG_X + lid];
      vsum_rb[c] += h & LANES;
      vsum_ga[c] += (h >> 8) & 0xFFu;
      if (i >= FILTER_DIM) {
        vsum_rb[c] -= old & LANES;
        vsum_ga[c] -= (old >> 8) & 0xFFu;
      }
      ring[(slot * COLS + c) * WG_X + lid] = h;
      int y = y0 + i - 2 * OFFSET, x = x0 + first + c;
      if (i >= 2 * OFFSET && x < dims.x) {
        uint alpha = ring[(done * COLS + c) * WG_X + lid] >> 24;
        uint v = roundedMean(vsum_rb[c], vsum_ga[c], alpha);
        imageStore(u_out, ivec2(x, y),
                   vec4(uvec4(v & 255u, (v >> 8) & 255u, (v >> 16) & 255u, alpha)) / 255.0);
      }
    }
  }
}
