// The frame difference (core/stages/frame_difference.hpp): the current luma against the previous
// frame's and the freeze reference's, its packed copy for the next frames, and its histogram.
// Every workgroup adds its totals with global atomics into one record of `totals`: 256 histogram
// counts, then sum |Y - P|, sum |Y - R|, sum F(Y) - F(P), sum (F(Y) - F(P))^2 as 64-bit
// (low, high) pairs in two's complement (a workgroup's own sums fit 32 bits for
// WG_SIZE * WORDS * 4 pixels; the signed one is sign-extended). With PUBLISH (a GPU with a
// fifth storage block), the last workgroup to finish (a counter after the record) moves the
// record into `result`, the buffer the host reads back, and leaves `totals` zero for the next
// frame: no zeroing upload and no copy around the dispatch (those took a third of the pass on an
// H200 at 1080p); without it the host zeroes `totals` and copies it. The host never maps
// `totals` (NVIDIA may keep a buffer it maps in host memory, where every atomic crosses the bus).
// With PACKED_SOURCE the frame is a packed buffer (one uint per pixel, R in bits 0-7:
// core/image/gpu_image.hpp's PackedRgbaBuffer) instead of an image: a sixth storage block.
// Regions (common/regions.glsl): a workgroup adds each region's luma and changed pixels in
// shared memory, then into 4 words a region after the record (sum Y and the changed count, 64
// bits each, low word first).
#ifndef PUBLISH
#define PUBLISH 0
#endif
#ifndef PACKED_SOURCE
#define PACKED_SOURCE 0
#endif
#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef WORDS
#define WORDS 4
#endif
layout(local_size_x = WG_SIZE) in;
#if PACKED_SOURCE
layout(std430, binding = 5) readonly buffer Source { uint source_pixels[]; };
#else
uniform highp sampler2D u_image;
#endif
uniform uvec2 u_size;
uniform uint u_words;  // ceil(width * height / 4)
uniform bool u_first;  // no kept frames: P = R = Y
uniform bool u_from_rgb;
uniform bool u_full_range;
// 4, as a uniform: a bound the compiler cannot see keeps the pixel loop one copy of its body,
// not 4 interleaved ones (Midgard spilled, v3d lost threads).
uniform uint u_pixels_per_word;
layout(std430, binding = 0) writeonly buffer Current { uint current_luma[]; };
layout(std430, binding = 1) readonly buffer Previous { uint previous_luma[]; };
layout(std430, binding = 2) readonly buffer Reference { uint reference_luma[]; };
layout(std430, binding = 3) buffer Totals { uint totals[]; };
const uint kRecordWords = 264u;
#define REGION_VALUES 2
#define REGION_TOTALS totals
#define REGION_TOTALS_AT kRecordWords
#include "common/regions.glsl"
#include "common/rgba8.glsl"
#include "common/full_range.glsl"
#if PUBLISH
layout(std430, binding = 4) writeonly buffer Result { uint result[]; };
const uint kTotalWords = kRecordWords + 4u * uint(REGIONS);  // the counter follows them
shared uint s_last;
#endif
#if REGIONS > 0
uniform uint u_change_level;
#endif

shared uint s_hist[256];
shared uint s_sad_previous[WG_SIZE];
shared uint s_sad_reference[WG_SIZE];
shared int s_motion[WG_SIZE];
shared uint s_squares[WG_SIZE];

// The luma of pixel `p`, the `index`th in row order.
uint lumaAt(ivec2 p, uint index) {
#if PACKED_SOURCE
  uvec3 c = unpackPixel(source_pixels[index]).rgb;
#else
  uvec3 c = texelBytes(texelFetch(u_image, p, 0)).rgb;
#endif
  if (!u_from_rgb) return c.r;
  return luma709(c);
}

// A 64-bit sum as two words: the add that wraps the low word carries into the high one; `high`
// is the added value's own high word (its sign extension for a signed one).
void addWide(uint at, uint v, uint high) {
  uint before = atomicAdd(totals[at], v);
  uint carry = before + v < before ? 1u : 0u;
  if (high + carry != 0u) atomicAdd(totals[at + 1u], high + carry);
}

void main() {
  uint lid = gl_LocalInvocationID.x;
  for (uint b = lid; b < 256u; b += uint(WG_SIZE)) s_hist[b] = 0u;
#if REGIONS > 0
  regionsBegin(lid, uint(WG_SIZE));
#endif
  barrier();
  uint pixels = u_size.x * u_size.y;
  uint sad_previous = 0u, sad_reference = 0u, squares = 0u;
  int motion = 0;
  uint base = gl_WorkGroupID.x * uint(WG_SIZE * WORDS);
  uint word_end = min(base + uint(WORDS * WG_SIZE), u_words);
  for (uint word = base + lid; word < word_end; word += uint(WG_SIZE)) {
    uint pw = u_first ? 0u : previous_luma[word];
    uint rw = u_first ? 0u : reference_luma[word];
    uint cw = 0u;
    // The word's first pixel by one division; the next ones step along (and wrap) the row.
    uint first = word * 4u;
    ivec2 at = ivec2(int(first % u_size.x), int(first / u_size.x));
    uint in_word = min(u_pixels_per_word, pixels - first);
    for (uint j = 0u; j < in_word; ++j) {
      uint y = lumaAt(at, first + j);
      uint p = u_first ? y : (pw >> (8u * j)) & 255u;
      uint r = u_first ? y : (rw >> (8u * j)) & 255u;
#if REGIONS > 0
      uint changed = uint(abs(int(y) - int(p))) > u_change_level ? 1u : 0u;
      addToRegions(cellOf(uvec2(at)), uvec2(at), uvec2(y, changed));
#endif
      if (++at.x == int(u_size.x)) at = ivec2(0, at.y + 1);
      cw |= y << (8u * j);
      sad_previous += uint(abs(int(y) - int(p)));
      sad_reference += uint(abs(int(y) - int(r)));
      int m = fullRange(y) - fullRange(p);
      motion += m;
      squares += uint(m * m);
      atomicAdd(s_hist[y], 1u);
    }
    current_luma[word] = cw;
  }
#if REGIONS > 0
  flushRegions();
#endif
  s_sad_previous[lid] = sad_previous;
  s_sad_reference[lid] = sad_reference;
  s_motion[lid] = motion;
  s_squares[lid] = squares;
  barrier();
  for (uint stride = uint(WG_SIZE) / 2u; stride > 0u; stride >>= 1) {
    if (lid < stride) {
      s_sad_previous[lid] += s_sad_previous[lid + stride];
      s_sad_reference[lid] += s_sad_reference[lid + stride];
      s_motion[lid] += s_motion[lid + stride];
      s_squares[lid] += s_squares[lid + stride];
    }
    barrier();
  }
  if (lid == 0u) {
    addWide(256u, s_sad_previous[0], 0u);
    addWide(258u, s_sad_reference[0], 0u);
    addWide(260u, uint(s_motion[0]), s_motion[0] < 0 ? 0xFFFFFFFFu : 0u);
    addWide(262u, s_squares[0], 0u);
  }
  // The shared sums are complete: the reduction's barriers came after the last add.
  for (uint b = lid; b < 256u; b += uint(WG_SIZE))
    if (s_hist[b] != 0u) atomicAdd(totals[b], s_hist[b]);
#if REGIONS > 0
  publishRegions(lid, uint(WG_SIZE));
#endif
#if PUBLISH
  // This workgroup's adds are done before its count: the last to count sees every one.
  memoryBarrierBuffer();
  barrier();
  if (lid == 0u) s_last = atomicAdd(totals[kTotalWords], 1u) == gl_NumWorkGroups.x - 1u ? 1u : 0u;
  barrier();
  if (s_last == 0u) return;
  for (uint i = lid; i < kTotalWords; i += uint(WG_SIZE)) result[i] = atomicExchange(totals[i], 0u);
  if (lid == 0u) atomicExchange(totals[kTotalWords], 0u);
#endif
}
