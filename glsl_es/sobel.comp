// The Sobel sums (core/stages/sobel.hpp) over the interior pixels of the range-stretched luma:
// the frame difference stage's packed luma (4 bytes a word), or with PACKED_SOURCE the packed
// frame itself (one uint per pixel, R in bits 0-7: its red channel, or the integer BT.709 luma of
// its RGB, as the frame difference reads it). An invocation takes 4 pixels of each of
// ROWS_PER_INVOCATION consecutive rows, sliding a window of 3 rows down them: the 6 pixels around
// its 4, each row loaded once. Workgroup w stores 7 words at 7 w: sum m
// (m = gx^2 + gy^2, 64 bits, low word first), sum q (64 bits) and sum q^2 (96 bits),
// q = round(65536 sqrt(m)) exactly. An invocation's own sums of its 32 pixels fit 32 bits for m
// (32 x 2080800) and q (32 x 94.6 million), 64 for q^2.
// Regions (common/regions.glsl): a workgroup adds each region's sum m in shared memory (64 bits),
// then into 2 words a region (64 bits, low first) of `regions`.
#ifndef WG_X  // invocations a row of the workgroup; the C++ sets it (SobelParams::kWorkgroupX)
#define WG_X 64
#endif
#ifndef WG_Y
#define WG_Y 4
#endif
#ifndef PACKED_SOURCE
#define PACKED_SOURCE 0
#endif
#define ROWS_PER_INVOCATION 8
layout(local_size_x = WG_X, local_size_y = WG_Y) in;
uniform uvec2 u_size;
uniform bool u_full_range;
// ROWS_PER_INVOCATION and 4, as uniforms: loop bounds the compiler cannot see keep each loop one
// copy of its body rather than 8 or 4 interleaved ones, which needed more registers than v3d has
// for 4 threads and more than Midgard has without spilling.
uniform uint u_rows_per_invocation;
uniform uint u_pixels_per_step;
#if PACKED_SOURCE
uniform bool u_from_rgb;
layout(std430, binding = 0) readonly buffer Source { uint source_pixels[]; };
#else
uniform uint u_words;
layout(std430, binding = 0) readonly buffer Luma { uint luma[]; };
#endif
layout(std430, binding = 1) writeonly buffer Partials { uint partials[]; };
// The regions' sums (bound only when there are regions: unused, the block is not active).
layout(std430, binding = 2) buffer Regions { uint regions[]; };
#define REGION_VALUES 1
#define REGION_TOTALS regions
#define REGION_TOTALS_AT 0u
#include "common/regions.glsl"
#include "common/rgba8.glsl"
#include "common/full_range.glsl"

#if REGIONS > 0
uint columnOf(uint x) { return x * uint(GRID_COLUMNS) / u_size.x; }
#endif

const uint kInvocations = uint(WG_X * WG_Y);
shared uint s_squares_lo[kInvocations];
shared uint s_squares_hi[kInvocations];
shared uint s_roots_lo[kInvocations];
shared uint s_roots_hi[kInvocations];
shared uint s_rsq0[kInvocations];
shared uint s_rsq1[kInvocations];
shared uint s_rsq2[kInvocations];

// A row's 6 pixels x0 - 1 .. x0 + 4, range-stretched, one byte each: bytes 0-3 in .x, 2-5 in
// .y, so that pixel j's 3 neighbours are the low 3 bytes of `neighbours`. Three rows in 6
// registers, read in place: copies of them to shift along a row cost Midgard more registers
// than it has (it spilled), and v3d its threads.
uvec2 packRow(int b0, int b1, int b2, int b3, int b4, int b5) {
  uint middle = uint(b2) | (uint(b3) << 8);
  return uvec2(uint(b0) | (uint(b1) << 8) | (middle << 16),
               middle | (uint(b4) << 16) | (uint(b5) << 24));
}

// Bytes j .. j + 2 of a packed row in bits 0-23 (bits 24-31 hold byte j + 3 or 0).
uint neighbours(uvec2 row, uint j) {
  return (j < 2u ? row.x : row.y) >> (8u * (j & 1u));
}

#if PACKED_SOURCE
// The range-stretched luma of pixel (x, y); x past the row's end reads its last pixel (the
// caller never uses those).
int pixelAt(uint x, uint y) {
  uvec3 c = unpackPixel(source_pixels[y * u_size.x + min(x, u_size.x - 1u)]).rgb;
  return fullRange(u_from_rgb ? luma709(c) : c.r);
}

uvec2 loadRow(uint y, uint x0) {
  return packRow(pixelAt(x0 - 1u, y), pixelAt(x0, y), pixelAt(x0 + 1u, y), pixelAt(x0 + 2u, y),
                 pixelAt(x0 + 3u, y), pixelAt(x0 + 4u, y));
}
#else
// Bytes x0 - 1 .. x0 + 4 of row y, range-stretched (bytes past the frame's end read as 0; the
// caller never uses them). x0 - 1 is a multiple of 4, so s, the bytes' offset in their first
// word, is the same for every invocation of a row (0 on every row where the width is a multiple
// of 4): the third word is loaded only where s = 3 reaches it.
uvec2 loadRow(uint y, uint x0) {
  uint i0 = y * u_size.x + x0 - 1u;
  uint w = i0 >> 2, s = i0 & 3u;
  uint last = u_words - 1u;
  uint a0 = luma[min(w, last)], a1 = luma[min(w + 1u, last)];
  uint a2 = s == 3u ? luma[min(w + 2u, last)] : 0u;
  // The 8 bytes from byte s on, as two words (a shift by 32 is undefined: s = 0 apart).
  uint lo = s == 0u ? a0 : (a0 >> (8u * s)) | (a1 << (32u - 8u * s));
  uint hi = s == 0u ? a1 : (a1 >> (8u * s)) | (a2 << (32u - 8u * s));
  return packRow(fullRange(bitfieldExtract(lo, 0, 8)), fullRange(bitfieldExtract(lo, 8, 8)),
                 fullRange(bitfieldExtract(lo, 16, 8)), fullRange(bitfieldExtract(lo, 24, 8)),
                 fullRange(hi & 255u), fullRange(bitfieldExtract(hi, 8, 8)));
}
#endif

// q = round(sqrt(m * 2^32)), the q with q^2 - q < X <= q^2 + q, and e = q^2 - X, in 32-bit
// arithmetic only. From s, the float root's integer part (within one of sqrt(m)), and the exact
// remainder r = m - s^2: 65536 sqrt(m) = 65536 s + 65536 r / (sqrt(m) + s), whose second term
// (|.| < 2^17) carries a float error far below one half, so q1 is within one of q. Then
// q1^2 - X is q1^2 modulo 2^32 (X = m * 2^32 has a zero low word), exact as a signed word since
// |q1^2 - X| < 3 q1 < 2^31; it says which of q1 - 1, q1, q1 + 1 is q. No 64-bit product: those
// cost Midgard its registers (it spilled) and v3d its threads. Sobel.EveryRootOnTheGpuIsExact
// checks every m.
uint sobelRoot(uint m, out int e) {
  e = 0;
  if (m == 0u) return 0u;
  float root = sqrt(float(m));
  int s = int(root);
  int r = int(m) - s * s;
  int q = s * 65536 + int(round(65536.0 * float(r) / (root + float(s))));
  e = int(uint(q) * uint(q));
  if (e >= q) {  // q^2 - q >= X: one too big
    e -= 2 * q - 1;
    return uint(q - 1);
  }
  if (e < -q) {  // q^2 + q < X: one too small
    e += 2 * q + 1;
    return uint(q + 1);
  }
  return uint(q);
}

#ifdef ROOT_TABLE
// Testing aid: the root of every m < u_count, m = the invocation's global index.
layout(std430, binding = 3) writeonly buffer RootTable { uint root_table[]; };
uniform uint u_count;

void main() {
  uint m = gl_WorkGroupID.x * kInvocations + gl_LocalInvocationIndex;
  int e;
  if (m < u_count) root_table[m] = sobelRoot(m, e);
}
#else
void main() {
  uint lid = gl_LocalInvocationIndex;
#if REGIONS > 0
  regionsBegin(lid, kInvocations);
  barrier();
#endif
  uint x0 = 1u + gl_WorkGroupID.x * uint(4 * WG_X) + gl_LocalInvocationID.x * 4u;
  uint y0 = 1u + (gl_WorkGroupID.y * uint(WG_Y) + gl_LocalInvocationID.y) *
                     uint(ROWS_PER_INVOCATION);
  // sum q^2 = 2^32 sum m + sum e: the 64-bit sum of the e (each |e| <= q < 2^27) beside them,
  // in this invocation's shared words (a row's at a time), not in registers.
  uint squares = 0u, roots = 0u;
  s_rsq0[lid] = 0u;
  s_rsq1[lid] = 0u;
  if (x0 + 1u < u_size.x && y0 + 1u < u_size.y) {
    uvec2 top = loadRow(y0 - 1u, x0), mid = loadRow(y0, x0);
#if REGIONS > 0
    // The grid columns of the invocation's 4 pixels, 4 bits each (at most 16 columns): four
    // divisions an invocation, none a pixel (the grid's row: one a row).
    uint columns = 0u;
    for (uint j = 0u; j < 4u; ++j) columns |= columnOf(min(x0 + j, u_size.x - 1u)) << (4u * j);
#if ROIS > 0
    uint roi_columns[kRoiWords];
    for (int i = 0; i < kRoiWords; ++i) roi_columns[i] = 0u;
    for (int i = 0; i < ROIS; ++i) roi_columns[i / 8] |= roiBits(i, x0);
#endif
#endif
    uint y_end = min(y0 + u_rows_per_invocation, u_size.y - 1u);
    uint pixels = min(u_pixels_per_step, u_size.x - 1u - x0);
    for (uint y = y0; y < y_end; ++y) {
      uvec2 bot = loadRow(y + 1u, x0);
#if REGIONS > 0
      uint row_cell = y * uint(GRID_ROWS) / u_size.y * uint(GRID_COLUMNS);
#if ROIS > 0
      uint rois[kRoiWords] = roi_columns;
      for (int i = 0; i < ROIS; ++i)
        if (y < u_rois[i].y || y >= u_rois[i].w) rois[i / 8] &= ~(15u << (4u * uint(i % 8)));
#endif
#endif
      int row_e = 0;  // |.| < 4 q < 2^29
      for (uint j = 0u; j < pixels; ++j) {
        uint t = neighbours(top, j), c = neighbours(mid, j), b = neighbours(bot, j);
        int t0 = int(t & 255u), t1 = int(bitfieldExtract(t, 8, 8));
        int t2 = int(bitfieldExtract(t, 16, 8));
        int c0 = int(c & 255u), c2 = int(bitfieldExtract(c, 16, 8));
        int b0 = int(b & 255u), b1 = int(bitfieldExtract(b, 8, 8));
        int b2 = int(bitfieldExtract(b, 16, 8));
        int gx = t0 + 2 * c0 + b0 - t2 - 2 * c2 - b2;
        int gy = t0 + 2 * t1 + t2 - b0 - 2 * b1 - b2;
        uint m = uint(gx * gx + gy * gy);
        int e;
        uint q = sobelRoot(m, e);
#if REGIONS > 0
        addToRegionsOfColumn(row_cell + bitfieldExtract(columns, int(4u * j), 4), j,
#if ROIS > 0
                             rois,
#endif
                             m);
#endif
        squares += m;
        roots += q;
        row_e += e;
      }
      uint carry;
      s_rsq0[lid] = uaddCarry(s_rsq0[lid], uint(row_e), carry);
      s_rsq1[lid] += carry - (row_e < 0 ? 1u : 0u);
      top = mid;
      mid = bot;
    }
  }
#if REGIONS > 0
  flushRegions();
#endif
  s_squares_lo[lid] = squares;
  s_squares_hi[lid] = 0u;
  s_roots_lo[lid] = roots;
  s_roots_hi[lid] = 0u;
  s_rsq1[lid] += squares;  // an invocation's sum q^2 < 32 * 2^53: 64 bits, modulo 2^64
  s_rsq2[lid] = 0u;
  barrier();
  // gl_NumWorkGroups.z is 1: a start the compiler cannot see keeps the tree one loop (unrolled,
  // Midgard spilled the levels' loads).
  for (uint stride = gl_NumWorkGroups.z * kInvocations / 2u; stride > 0u; stride >>= 1) {
    if (lid < stride) {
      uint o = lid + stride, carry;
      s_squares_lo[lid] = uaddCarry(s_squares_lo[lid], s_squares_lo[o], carry);
      s_squares_hi[lid] += s_squares_hi[o] + carry;
      s_roots_lo[lid] = uaddCarry(s_roots_lo[lid], s_roots_lo[o], carry);
      s_roots_hi[lid] += s_roots_hi[o] + carry;
      s_rsq0[lid] = uaddCarry(s_rsq0[lid], s_rsq0[o], carry);
      uint c1, c2;
      uint mid = uaddCarry(s_rsq1[lid], s_rsq1[o], c1);
      s_rsq1[lid] = uaddCarry(mid, carry, c2);
      s_rsq2[lid] += s_rsq2[o] + c1 + c2;
    }
    barrier();
  }
  if (lid == 0u) {
    uint w = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 7u;
    partials[w] = s_squares_lo[0];
    partials[w + 1u] = s_squares_hi[0];
    partials[w + 2u] = s_roots_lo[0];
    partials[w + 3u] = s_roots_hi[0];
    partials[w + 4u] = s_rsq0[0];
    partials[w + 5u] = s_rsq1[0];
    partials[w + 6u] = s_rsq2[0];
  }
#if REGIONS > 0
  // The reduction's barriers came after the last shared add.
  publishRegions(lid, kInvocations);
#endif
}
#endif
