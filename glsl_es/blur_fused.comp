// The box blur's horizontal and vertical pass fused in one dispatch (core/stages/blur.hpp,
// strategy "fused"): a workgroup reads its TW x TH output tile plus the filter's halo once
// into shared memory, runs the horizontal pass over the (TH + 2R) tile rows into shared
// memory, then the vertical pass, and stores each output once. Both passes are sliding
// windows over segments of SEG outputs (one add and one subtract per channel and output).
// Bit-exact with the CPU reference: the horizontal result is rounded to 8 bits exactly as the
// separate pass would store it, halo rows and columns are clamped to the image (a clamped
// row's horizontal result is the horizontal result of the clamped row), A is carried.
#ifndef TW
#define TW 64
#endif
#ifndef TH
#define TH 32
#endif
#ifndef SEG
#define SEG 16
#endif
#ifndef WG_X
#define WG_X 256
#endif
#ifndef FILTER_DIM
#define FILTER_DIM 15
#endif
// H_ONLY 1: the horizontal pass alone (strategy "split": a tile-coalesced horizontal pass, then
// blur_sliding.comp's vertical pass): no vertical halo, phase 3 stores the horizontal result.
#ifndef H_ONLY
#define H_ONLY 0
#endif
// OUT_BUFFER 1 (with H_ONLY): the horizontal result goes to a packed buffer, one uint per pixel
// (blur_columns.comp reads it), instead of the image.
#ifndef OUT_BUFFER
#define OUT_BUFFER 0
#endif
// IN_BUFFER 1 (with H_ONLY): the source is a packed buffer of u_size.x * u_size.y uints (the
// blur of a packed frame, core/image/gpu_image.hpp's PackedRgbaBuffer): its texels are loaded
// as they are, without the unorm round trip of a texture fetch.
#ifndef IN_BUFFER
#define IN_BUFFER 0
#endif
layout(local_size_x = WG_X) in;
#if IN_BUFFER
layout(std430, binding = 2) readonly buffer Source { uint src[]; };
uniform ivec2 u_size;
#else
uniform highp sampler2D u_image;
#endif
#if OUT_BUFFER
layout(std430, binding = 0) writeonly buffer HRows { uint hrows[]; };
#else
layout(rgba8, binding = 0) writeonly uniform highp image2D u_out;
#endif

// Texels of the input tile each invocation loads (the preprocessor's copy of IW * IH / WG_X).
#define TILE_LOADS \
  (((TW + FILTER_DIM - 1) * (TH + (1 - H_ONLY) * (FILTER_DIM - 1)) + WG_X - 1) / WG_X)
const int R = (FILTER_DIM - 1) / 2;
const int RV = H_ONLY != 0 ? 0 : R;  // the vertical halo
const int IW = TW + 2 * R;           // input tile with its halo
const int IH = TH + 2 * RV;
const int HSEGS = (TW + SEG - 1) / SEG;  // horizontal segments per tile row
const int VSEGS = (TH + SEG - 1) / SEG;  // vertical segments per tile column
shared uint inp[IW * IH];                // RGBA8 packed, R in bits 0-7
shared uint hout[TW * IH];               // the horizontal pass, packed likewise

// The source texel at q (inside the image), RGBA8 packed with R in bits 0-7.
uint sourceTexel(ivec2 q, ivec2 dims) {
#if IN_BUFFER
  return src[q.y * dims.x + q.x];
#else
  uvec4 t = uvec4(texelFetch(u_image, q, 0) * 255.0 + 0.5);
  return t.r | (t.g << 8) | (t.b << 16) | (t.a << 24);
#endif
}

uvec3 rgbOf(uint t) {
  return uvec3(t & 255u, (t >> 8) & 255u, (t >> 16) & 255u);
}

uint packRounded(uvec3 sum, uint centre) {
  uvec3 c = (sum + uint(FILTER_DIM / 2)) / uint(FILTER_DIM);
  return c.r | (c.g << 8) | (c.b << 16) | (centre & 0xff000000u);
}

void main() {
#if IN_BUFFER
  ivec2 dims = u_size;
#else
  ivec2 dims = textureSize(u_image, 0);
#endif
  ivec2 origin = ivec2(gl_WorkGroupID.xy) * ivec2(TW, TH);
  int lid = int(gl_LocalInvocationIndex);

  // 1. The tile and its halo, clamped to the edge (texelFetch outside the image is undefined).
#if TILE_LOADS <= 16
  // A loop of constant trip count, all reads before the first shared store: the compiler can
  // issue an invocation's reads at once (with a trip count that depends on lid, it waited for
  // each read in turn). Larger shares would spill the registers, and take the plain loop.
  uint loaded[TILE_LOADS];
  for (int j = 0; j < TILE_LOADS; ++j) {
    int i = min(lid + j * WG_X, IW * IH - 1);
    int r = i / IW, c = i - r * IW;
    loaded[j] = sourceTexel(clamp(origin + ivec2(c - R, r - RV), ivec2(0), dims - 1), dims);
  }
  for (int j = 0; j < TILE_LOADS; ++j)
    if (lid + j * WG_X < IW * IH) inp[lid + j * WG_X] = loaded[j];
#else
  for (int i = lid; i < IW * IH; i += WG_X) {
    int r = i / IW, c = i - r * IW;
    inp[i] = sourceTexel(clamp(origin + ivec2(c - R, r - RV), ivec2(0), dims - 1), dims);
  }
#endif
  memoryBarrierShared();
  barrier();

  // 2. Horizontal: output column c of tile row r sums inp columns c .. c + 2R of that row.
  for (int item = lid; item < IH * HSEGS; item += WG_X) {
    int r = item / HSEGS, s = item - r * HSEGS;
    int c0 = s * SEG, c1 = min(c0 + SEG, TW);
    int row = r * IW;
    uvec3 sum = uvec3(0u);
    for (int f = 0; f <= 2 * R; ++f) sum += rgbOf(inp[row + c0 + f]);
    for (int c = c0; c < c1; ++c) {
      hout[r * TW + c] = packRounded(sum, inp[row + c + R]);
      if (c + 1 < c1) {
        sum += rgbOf(inp[row + c + 2 * R + 1]);
        sum -= rgbOf(inp[row + c]);
      }
    }
  }
  memoryBarrierShared();
  barrier();

#if H_ONLY
  // 3. The horizontal result out, neighbouring invocations on neighbouring texels of a row.
  for (int i = lid; i < TW * TH; i += WG_X) {
    int r = i / TW, c = i - r * TW;
    ivec2 p = origin + ivec2(c, r);
    uint t = hout[i];
#if OUT_BUFFER
    if (p.x < dims.x && p.y < dims.y) hrows[p.y * dims.x + p.x] = t;
#else
    if (p.x < dims.x && p.y < dims.y)
      imageStore(u_out, p, vec4(uvec4(t & 255u, (t >> 8) & 255u, (t >> 16) & 255u, t >> 24)) /
                               255.0);
#endif
  }
#else
  // 3. Vertical: output row r of tile column c sums hout rows r .. r + 2R. Neighbouring
  // invocations take neighbouring columns, so their stores are neighbours.
  for (int item = lid; item < TW * VSEGS; item += WG_X) {
    int s = item / TW, c = item - s * TW;
    int r0 = s * SEG, r1 = min(r0 + SEG, TH);
    uvec3 sum = uvec3(0u);
    for (int f = 0; f <= 2 * R; ++f) sum += rgbOf(hout[(r0 + f) * TW + c]);
    for (int r = r0; r < r1; ++r) {
      ivec2 p = origin + ivec2(c, r);
      uint t = packRounded(sum, hout[(r + R) * TW + c]);
      if (p.x < dims.x && p.y < dims.y)
        imageStore(u_out, p, vec4(uvec4(t & 255u, (t >> 8) & 255u, (t >> 16) & 255u, t >> 24)) /
                                 255.0);
      if (r + 1 < r1) {
        sum += rgbOf(hout[(r + 2 * R + 1) * TW + c]);
        sum -= rgbOf(hout[r * TW + c]);
      }
    }
  }
#endif
}
