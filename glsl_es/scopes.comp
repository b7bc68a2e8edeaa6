// The scopes (core/stages/scopes.hpp): waveform, RGB parade and vectorscope counts of one
// image in one pass. A workgroup covers a tile of TILE_W pixel columns and ROWS rows; the
// tile's pixel columns fall into at most TILE_W scope columns, whose waveform and parade
// counts it adds in shared memory and then into the output with global atomics. The
// vectorscope's 65536 bins do not fit in shared memory: each invocation adds each run of equal
// bins down its column with one global atomic.
//   WAVEFORM, PARADE, VECTORSCOPE  0 or 1: which scopes are counted
//   SOURCE_BUFFER  0: the pixels are u_image's texels; 1: the packed words at binding 1 (one a
//               pixel, row-major: the buffer the histogram reads, common/image_pixels.glsl)
//   LUMA_IMAGE  1: the waveform's L is the source's luma lane's red channel (u_luma, or with
//               SOURCE_BUFFER the packed words at binding 2); 0: the BT.709 integer luma of the
//               pixel
//   CHROMA_PLANES  1: the vectorscope alone, of a YUV frame's chroma samples read from the
//               import's plane textures (core/stages/scopes.hpp, ChromaPlanes); u_size is the
//               chroma size, and no u_image is declared
//   SIGNALSTATS  with CHROMA_PLANES, 1: also signalstats' per-sample counts: each plane's sum
//               |C - previous C| against the previous frame's samples (binding 1, Cb | Cr << 8
//               a sample, rewritten with this frame's; u_has_previous 0: no sums) and the
//               pixels out of broadcast range (Y outside 16..235, its Cb or Cr outside 16..240),
//               three words a workgroup (binding 2) the host adds in 64 bits
//   TILE_W, WG_Y  the workgroup is TILE_W x WG_Y invocations; ROWS rows per workgroup
// Output (binding 0), zeroed by the host before the dispatch: the waveform (u_columns * 256),
// then the parade (3 * u_columns * 256), then the vectorscope (65536), each section present only
// where counted, at the offsets u_parade_at and u_vectorscope_at.
#ifndef WAVEFORM
#define WAVEFORM 1
#endif
#ifndef PARADE
#define PARADE 1
#endif
#ifndef VECTORSCOPE
#define VECTORSCOPE 1
#endif
#ifndef LUMA_IMAGE
#define LUMA_IMAGE 0
#endif
#ifndef CHROMA_PLANES
#define CHROMA_PLANES 0
#endif
#ifndef SOURCE_BUFFER
#define SOURCE_BUFFER 0
#endif
#if SOURCE_BUFFER && CHROMA_PLANES
#error "CHROMA_PLANES reads the plane textures"
#endif
#ifndef SIGNALSTATS
#define SIGNALSTATS 0
#endif
#if SIGNALSTATS && !CHROMA_PLANES
#error "SIGNALSTATS reads the chroma planes"
#endif
#if CHROMA_PLANES && (WAVEFORM || PARADE || !VECTORSCOPE)
#error "CHROMA_PLANES counts the vectorscope alone"
#endif
#ifndef TILE_W
#define TILE_W 8
#endif
#ifndef WG_Y
#define WG_Y 32
#endif
#ifndef ROWS
#define ROWS 256
#endif

layout(local_size_x = TILE_W, local_size_y = WG_Y) in;

#if CHROMA_PLANES
uniform highp sampler2D u_plane0;  // Y+C pairs (GR88) for YUYV / UYVY
uniform highp sampler2D u_plane1;  // Cb (R8), or CbCr (GR88) for NV12 / NV21
uniform highp sampler2D u_plane2;  // Cr (R8)
uniform int u_layout;              // 0 planar, 1 semi-planar, 2 YUYV, 3 UYVY
uniform bool u_swap_uv;            // NV21: CrCb
#if SIGNALSTATS
uniform ivec2 u_frame_size;   // pixels
uniform ivec2 u_subsampling;  // pixels a chroma sample covers, in x and y
uniform bool u_has_previous;
layout(std430, binding = 1) buffer Previous { uint previous[]; };
layout(std430, binding = 2) writeonly buffer Partials { uint partials[]; };
shared uint group_sums[3];
#endif
#elif SOURCE_BUFFER
layout(std430, binding = 1) readonly buffer Image { uint pixels[]; };
#else
uniform highp sampler2D u_image;
#endif
#if LUMA_IMAGE && SOURCE_BUFFER
layout(std430, binding = 2) readonly buffer Luma { uint luma_pixels[]; };
#elif LUMA_IMAGE
uniform highp sampler2D u_luma;
#endif
uniform ivec2 u_size;
uniform uint u_columns;
uniform uint u_parade_at;
uniform uint u_vectorscope_at;
#if CHROMA_PLANES
#define IMAGE_PIXELS 0
#endif
#include "common/image_pixels.glsl"

layout(std430, binding = 0) buffer Counts { uint counts[]; };

// Shared words: the waveform's TILE_W columns of 256 levels, then the parade's 3 channels of
// TILE_W columns.
const uint PLANES = uint(WAVEFORM + 3 * PARADE);
const uint SHARED_WORDS = PLANES * uint(TILE_W) * 256u;
const uint INVOCATIONS = uint(TILE_W * WG_Y);
#if WAVEFORM || PARADE
shared uint tile[SHARED_WORDS];
#endif

#if CHROMA_PLANES
// Chroma sample s's (Cb, Cr), read as glsl_es/import_yuv.comp reads them: one texel a sample
// in planar and semi-planar planes; texel 2x holds Cb, 2x + 1 Cr in YUYV / UYVY.
uvec2 chromaPair(ivec2 s) {
  uint cb, cr;
  if (u_layout == 0) {
    cb = texelBytes(texelFetch(u_plane1, s, 0)).r;
    cr = texelBytes(texelFetch(u_plane2, s, 0)).r;
  } else if (u_layout == 1) {
    uvec4 c = texelBytes(texelFetch(u_plane1, s, 0));
    cb = u_swap_uv ? c.g : c.r;
    cr = u_swap_uv ? c.r : c.g;
  } else {
    uvec4 even = texelBytes(texelFetch(u_plane0, ivec2(2 * s.x, s.y), 0));
    uvec4 odd = texelBytes(texelFetch(u_plane0, ivec2(2 * s.x + 1, s.y), 0));
    bool yuyv = u_layout == 2;
    cb = yuyv ? even.g : even.r;
    cr = yuyv ? odd.g : odd.r;
  }
  return uvec2(cb, cr);
}
#endif

#if SIGNALSTATS
// Y of pixel p, as import_yuv.comp reads it (UYVY: the pair's second byte).
uint lumaAt(ivec2 p) {
  uvec4 t = texelBytes(texelFetch(u_plane0, p, 0));
  return u_layout == 3 ? t.g : t.r;
}

bool outOfRange(uint v, uint low, uint high) {
  return v < low || v > high;
}
#endif

// floor(x * columns / width), in 32 bits (the host checks width * columns < 2^32).
uint columnOf(uint x) {
  return x * u_columns / uint(u_size.x);
}

void main() {
  uint x0 = gl_WorkGroupID.x * uint(TILE_W);
#if WAVEFORM || PARADE
  uint first_column = columnOf(x0);
  for (uint i = gl_LocalInvocationIndex; i < SHARED_WORDS; i += INVOCATIONS) tile[i] = 0u;
  memoryBarrierShared();
  barrier();
#endif
  int x = int(x0 + gl_LocalInvocationID.x);
  // Each invocation counts ROWS / WG_Y consecutive rows of its column, so that the runs of one
  // level down a column (smooth pictures, flat areas, a black frame) add once: an atomic a pixel
  // on one shared word serializes the invocations that hit it.
  const int kRowsEach = ROWS / WG_Y;
  int y0 = int(gl_WorkGroupID.y) * ROWS + int(gl_LocalInvocationID.y) * kRowsEach;
  int y1 = min(y0 + kRowsEach, u_size.y);
#if VECTORSCOPE
  uint run_bin = 0u, run = 0u;
#endif
#if WAVEFORM || PARADE
  // Per plane, the word of the level being run and its length (words: shared indices).
  uvec4 run_word = uvec4(0u), run_length = uvec4(0u);
#endif
#if SIGNALSTATS
  // This invocation's sums: |Cb - previous Cb|, |Cr - previous Cr|, pixels out of range.
  uvec3 sums = uvec3(0u);
  if (gl_LocalInvocationIndex == 0u) group_sums[0] = group_sums[1] = group_sums[2] = 0u;
  memoryBarrierShared();
  barrier();
#endif
  if (x < u_size.x) {
#if WAVEFORM || PARADE
    uint local_column = columnOf(uint(x)) - first_column;
#endif
    for (int y = y0; y < y1; ++y) {
#if CHROMA_PLANES
      uvec2 pair = chromaPair(ivec2(x, y));
      uint bin = pair.y * 256u + pair.x;
#if SIGNALSTATS
      uint at = uint(y) * uint(u_size.x) + uint(x);
      if (u_has_previous) {
        uint before = previous[at];
        sums.x += uint(abs(int(pair.x) - int(before & 255u)));
        sums.y += uint(abs(int(pair.y) - int(before >> 8)));
      }
      previous[at] = pair.x | (pair.y << 8);
      // The block of pixels whose chroma this sample is, clipped to the frame.
      ivec2 p0 = ivec2(x, y) * u_subsampling;
      ivec2 p1 = min(p0 + u_subsampling, u_frame_size);
      if (outOfRange(pair.x, 16u, 240u) || outOfRange(pair.y, 16u, 240u)) {
        sums.z += uint((p1.x - p0.x) * (p1.y - p0.y));
      } else {
        for (int py = p0.y; py < p1.y; ++py)
          for (int px = p0.x; px < p1.x; ++px)
            sums.z += outOfRange(lumaAt(ivec2(px, py)), 16u, 235u) ? 1u : 0u;
      }
#endif
#else
      uvec4 c = pixelAt(ivec2(x, y));
#endif
#if WAVEFORM || PARADE
      uvec4 word = uvec4(0u);
      uint plane = 0u;
#if WAVEFORM
#if LUMA_IMAGE && SOURCE_BUFFER
      word.x = local_column * 256u + (luma_pixels[uint(y) * uint(u_size.x) + uint(x)] & 255u);
#elif LUMA_IMAGE
      word.x = local_column * 256u + texelBytes(texelFetch(u_luma, ivec2(x, y), 0)).r;
#else
      word.x = local_column * 256u + luma709(c.rgb);
#endif
      plane = 1u;
#endif
#if PARADE
      word[plane] = (plane * uint(TILE_W) + local_column) * 256u + c.r;
      word[plane + 1u] = ((plane + 1u) * uint(TILE_W) + local_column) * 256u + c.g;
      word[plane + 2u] = ((plane + 2u) * uint(TILE_W) + local_column) * 256u + c.b;
#endif
      bvec4 ends = notEqual(word, run_word);
      for (uint p = 0u; p < PLANES; ++p) {
        if (ends[p]) {
          if (run_length[p] != 0u) atomicAdd(tile[run_word[p]], run_length[p]);
          run_word[p] = word[p];
          run_length[p] = 0u;
        }
      }
      run_length += uvec4(1u);
#endif
#if VECTORSCOPE
#if !CHROMA_PLANES
      // BT.709 limited range in 16-bit fixed point (core/stages/scopes_reference.hpp).
      ivec3 v = ivec3(c.rgb);
      int cb = (-6596 * v.r - 22189 * v.g + 28785 * v.b + 8421376) >> 16;
      int cr = (28784 * v.r - 26145 * v.g - 2639 * v.b + 8421376) >> 16;
      uint bin = uint(cr) * 256u + uint(cb);
#endif
      if (run != 0u && bin != run_bin) {
        atomicAdd(counts[u_vectorscope_at + run_bin], run);
        run = 0u;
      }
      run_bin = bin;
      ++run;
#endif
    }
  }
#if WAVEFORM || PARADE
  for (uint p = 0u; p < PLANES; ++p)
    if (run_length[p] != 0u) atomicAdd(tile[run_word[p]], run_length[p]);
#endif
#if VECTORSCOPE
  if (run != 0u) atomicAdd(counts[u_vectorscope_at + run_bin], run);
#endif
#if SIGNALSTATS
  atomicAdd(group_sums[0], sums.x);
  atomicAdd(group_sums[1], sums.y);
  atomicAdd(group_sums[2], sums.z);
  memoryBarrierShared();
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    partials[3u * group] = group_sums[0];
    partials[3u * group + 1u] = group_sums[1];
    partials[3u * group + 2u] = group_sums[2];
  }
#endif
#if WAVEFORM || PARADE
  memoryBarrierShared();
  barrier();
  // The tile's scope columns: first_column .. the column of its last pixel.
  uint last_x = min(x0 + uint(TILE_W), uint(u_size.x)) - 1u;
  uint span = columnOf(last_x) - first_column + 1u;
  uint words = PLANES * span * 256u;
  for (uint i = gl_LocalInvocationIndex; i < words; i += INVOCATIONS) {
    uint p = i / (span * 256u), rest = i % (span * 256u);
    uint n = tile[(p * uint(TILE_W)) * 256u + rest];
    if (n == 0u) continue;
    uint column = first_column + rest / 256u, level = rest % 256u;
#if WAVEFORM
    uint at = p == 0u ? column * 256u + level
                            : u_parade_at + ((p - 1u) * u_columns + column) * 256u + level;
#else
    uint at = u_parade_at + (p * u_columns + column) * 256u + level;
#endif
    atomicAdd(counts[at], n);
  }
#endif
}
