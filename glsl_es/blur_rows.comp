// The box blur's horizontal pass from a packed buffer, 4 pixels per invocation and no shared
// memory (core/stages/blur.hpp, strategy "split" with buffer_intermediate and row_quads): each
// invocation reads its window (its quad plus the filter's halo, rounded out to whole quads) as
// uvec4 loads of the packed source, sums it in registers and writes its 4 results as one uvec4
// of the packed intermediate that blur_columns.comp reads. Neighbouring invocations own
// neighbouring quads, so every load of a warp is 512 contiguous bytes and the caches serve the
// overlap; no barrier, no bank conflicts. Widths are a multiple of 4 (rows start 16-byte aligned).
// The sums are two words of 16-bit lanes (R and B, G and A), exact for FILTER_DIM <= 257.
// Bit-exact with the CPU reference: (sum + FILTER_DIM / 2) / FILTER_DIM per channel, A carried,
// columns clamped to the row.
#ifndef WG_X
#define WG_X 64
#endif
#ifndef FILTER_DIM
#define FILTER_DIM 15
#endif
layout(local_size_x = WG_X) in;
// The source: one uint per pixel, R in bits 0-7 (PackedRgbaBuffer), read a quad at a time.
layout(std430, binding = 2) readonly buffer Source { uvec4 src[]; };
layout(std430, binding = 0) writeonly buffer HRows { uvec4 hrows[]; };
uniform ivec2 u_size;

const int R = (FILTER_DIM - 1) / 2;
const int QR = (R + 3) / 4;         // whole quads of halo on each side
const int WINDOW = 4 * (2 * QR + 1);  // pixels held: the quads q - QR .. q + QR
const uint LANES = 0x00ff00ffu;

// Pixel x of row y, x clamped to the row (the edge quads' path).
uint pixel(int x, int y) {
  x = clamp(x, 0, u_size.x - 1);
  uvec4 q = src[y * (u_size.x / 4) + x / 4];
  int k = x & 3;
  return k == 0 ? q.x : k == 1 ? q.y : k == 2 ? q.z : q.w;
}

uint rounded(uint rb, uint ga, uint centre) {
  const uint half_dim = uint(FILTER_DIM / 2), dim = uint(FILTER_DIM);
  uint r = ((rb & 0xffffu) + half_dim) / dim;
  uint b = ((rb >> 16) + half_dim) / dim;
  uint g = ((ga & 0xffffu) + half_dim) / dim;
  return r | (g << 8) | (b << 16) | (centre & 0xff000000u);
}

void main() {
  int q = int(gl_GlobalInvocationID.x), y = int(gl_WorkGroupID.y);
  int quads = u_size.x / 4;
  if (q >= quads || y >= u_size.y) return;
  int base = 4 * (q - QR);  // the column of px[0]
  uint px[WINDOW];
  if (q - QR >= 0 && q + QR < quads) {
    // All loads before the first use: the compiler issues them at once.
    for (int k = 0; k < 2 * QR + 1; ++k) {
      uvec4 v = src[y * quads + q - QR + k];
      px[4 * k] = v.x;
      px[4 * k + 1] = v.y;
      px[4 * k + 2] = v.z;
      px[4 * k + 3] = v.w;
    }
  } else {
    for (int j = 0; j < WINDOW; ++j) px[j] = pixel(base + j, y);
  }
  // Output column 4q + i sums px[4QR - R + i .. 4QR + R + i].
  const int first = 4 * QR - R;
  uint rb = 0u, ga = 0u;
  for (int f = 0; f < FILTER_DIM; ++f) {
    rb += px[first + f] & LANES;
    ga += (px[first + f] >> 8) & LANES;
  }
  uvec4 out_quad;
  for (int i = 0; i < 4; ++i) {
    out_quad[i] = rounded(rb, ga, px[4 * QR + i]);
    if (i < 3) {
      // Add the column entering before the one leaving: the unsigned lanes never go below zero.
      uint head = px[first + FILTER_DIM + i], tail = px[first + i];
      rb += head & LANES;
      ga += (head >> 8) & LANES;
      rb -= tail & LANES;
      ga -= (tail >> 8) & LANES;
    }
  }
  hrows[y * quads + q] = out_quad;
}
