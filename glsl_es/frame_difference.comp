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
// Regions (GRID_COLUMNS x GRID_ROWS cells, then ROIS rectangles): a workgroup adds each region's
// luma and changed pixels in shared memory, then into 4 words a region after the record (sum Y
// and the changed count, 64 bits each, low word first).
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
#ifndef GRID_COLUMNS
#define GRID_COLUMNS 0
#endif
#ifndef GRID_ROWS
#define GRID_ROWS 0
#endif
#ifndef ROIS
#define ROIS 0
#endif
#define REGIONS (GRID_COLUMNS * GRID_ROWS + ROIS)
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
#if PUBLISH
layout(std430, binding = 4) writeonly buffer Result { uint result[]; };
const uint kTotalWords = kRecordWords + 4u * uint(REGIONS);  // the counter follows them
shared uint s_last;
#endif
#if REGIONS > 0
uniform uint u_change_level;
#if ROIS > 0
uniform uvec4 u_rois[ROIS];  // x0, y0, x1, y1: columns [x0, x1) of rows [y0, y1)
#endif
shared uint s_region_luma[REGIONS];
shared uint s_region_changed[REGIONS];
#endif

shared uint s_hist[256];
shared uint s_sad_previous[WG_SIZE];
shared uint s_sad_reference[WG_SIZE];
shared int s_motion[WG_SIZE];
shared uint s_squares[WG_SIZE];

// The luma of pixel `p`, the `index`th in row order.
uint lumaAt(ivec2 p, uint index) {
#if PACKED_SOURCE
  uint w = source_pixels[index];
  uvec3 c = uvec3(w & 255u, (w >> 8) & 255u, (w >> 16) & 255u);
#else
  // unorm8 -> float is c / 255: scaling back and rounding gives c exactly.
  uvec3 c = uvec3(texelFetch(u_image, p, 0).rgb * 255.0 + 0.5);
#endif
  if (!u_from_rgb) return c.r;
  return (13933u * c.r + 46871u * c.g + 4732u * c.b + 32768u) >> 16;
}

// Limited range stretched to full: 255 * clamp(y - 16, 0, 219) / 219 (siti).
int fullRange(uint y) {
  if (u_full_range) return int(y);
  return int(255u * (clamp(y, 16u, 235u) - 16u) / 219u);
}

#if REGIONS > 0
// An invocation's pixels mostly lie in one cell: it adds them in registers and goes to shared
// memory when the cell changes and at the end (not one shared add per pixel: a whole workgroup
// on the same word serializes).
uint g_cell = 0u, g_cell_luma = 0u, g_cell_changed = 0u;
#if ROIS > 0
uint g_roi_luma[ROIS], g_roi_changed[ROIS];
#endif

void flushCell() {
  if (g_cell_luma != 0u) atomicAdd(s_region_luma[g_cell], g_cell_luma);
  if (g_cell_changed != 0u) atomicAdd(s_region_changed[g_cell], g_cell_changed);
  g_cell_luma = 0u;
  g_cell_changed = 0u;
}

void addToRegions(ivec2 at, uint y, uint p) {
  uint changed = uint(abs(int(y) - int(p))) > u_change_level ? 1u : 0u;
  uvec2 a = uvec2(at);
#if GRID_COLUMNS > 0
  uint column = a.x * uint(GRID_COLUMNS) / u_size.x, row = a.y * uint(GRID_ROWS) / u_size.y;
  uint cell = row * uint(GRID_COLUMNS) + column;
  if (cell != g_cell) {
    flushCell();
    g_cell = cell;
  }
  g_cell_luma += y;
  g_cell_changed += changed;
#endif
#if ROIS > 0
  for (int i = 0; i < ROIS; ++i) {
    if (all(greaterThanEqual(a, u_rois[i].xy)) && all(lessThan(a, u_rois[i].zw))) {
      g_roi_luma[i] += y;
      g_roi_changed[i] += changed;
    }
  }
#endif
}

void flushRegions() {
  flushCell();
#if ROIS > 0
  for (int i = 0; i < ROIS; ++i) {
    uint r = uint(GRID_COLUMNS * GRID_ROWS + i);
    if (g_roi_luma[i] != 0u) atomicAdd(s_region_luma[r], g_roi_luma[i]);
    if (g_roi_changed[i] != 0u) atomicAdd(s_region_changed[r], g_roi_changed[i]);
  }
#endif
}

#endif

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
  for (uint r = lid; r < uint(REGIONS); r += uint(WG_SIZE)) {
    s_region_luma[r] = 0u;
    s_region_changed[r] = 0u;
  }
#if ROIS > 0
  for (int i = 0; i < ROIS; ++i) {
    g_roi_luma[i] = 0u;
    g_roi_changed[i] = 0u;
  }
#endif
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
      addToRegions(at, y, p);
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
  for (uint r = lid; r < uint(REGIONS); r += uint(WG_SIZE)) {
    uint at = kRecordWords + 4u * r;
    if (s_region_luma[r] != 0u) addWide(at, s_region_luma[r], 0u);
    if (s_region_changed[r] != 0u) addWide(at + 2u, s_region_changed[r], 0u);
  }
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
