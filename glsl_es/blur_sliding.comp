// The box blur pass as a sliding window (core/stages/blur.hpp, strategy "sliding"): each
// invocation owns SEGMENT consecutive outputs of one line along the filter direction and keeps a
// running integer sum of the FILTER_DIM taps, so an output costs one add and one subtract per
// channel whatever the tap count. Segments keep the work parallel: a line of W texels is
// ceil(W / SEGMENT) invocations (workgroup y), WG_X neighbouring lines per workgroup (x).
// u_flip swaps x and y, so the same code runs the vertical pass; there neighbouring invocations
// read neighbouring texels of a row.
// Bit-exact with the CPU reference: the sum of the clamped taps is exact in any order, and
// each output is (sum + FILTER_DIM / 2) / FILTER_DIM; A is carried through from the centre.
// RING 1: the window's texels also sit in a per-invocation ring in shared memory, so an output
// costs one texelFetch (the entering tap) instead of three (entering, leaving, centre): the
// texture units bound this pass on an H200. The host sets RING 0 where the ring
// (WG_X * FILTER_DIM words) does not fit the shared memory.
// PREFETCH (RING 1): the entering taps of PREFETCH outputs are fetched together before they are
// added, so an invocation has PREFETCH texture reads in flight instead of one: with one, the
// loop waits a memory latency per output and the pass stays far below the memory's bandwidth.
#ifndef SEGMENT
#define SEGMENT 64
#endif
#ifndef WG_X
#define WG_X 64
#endif
#ifndef FILTER_DIM
#define FILTER_DIM 15
#endif
#ifndef RING
#define RING 0
#endif
#ifndef PREFETCH
#define PREFETCH 1
#endif
layout(local_size_x = WG_X) in;
uniform highp sampler2D u_image;
layout(rgba8, binding = 0) writeonly uniform highp image2D u_out;
uniform int u_flip;

const int OFFSET = (FILTER_DIM - 1) / 2;
#if RING
shared uint ring[WG_X * FILTER_DIM];
#endif

void main() {
  ivec2 dims = textureSize(u_image, 0);
  bool flip = u_flip != 0;
  ivec2 pass_dims = flip ? dims.yx : dims;  // x runs along the filter
  int line = int(gl_GlobalInvocationID.x);
  int x0 = int(gl_WorkGroupID.y) * SEGMENT;
  if (line >= pass_dims.y || x0 >= pass_dims.x) return;
  int last = pass_dims.x - 1;
  int x1 = min(x0 + SEGMENT, pass_dims.x);
#if RING
  // Slot j of this invocation's ring holds tap x0 - OFFSET + j until it leaves the window;
  // then the entering tap takes its slot.
  uint base = gl_LocalInvocationIndex * uint(FILTER_DIM);
  uvec3 sum = uvec3(0u);
  for (int f = 0; f < FILTER_DIM; ++f) {
    ivec2 q = ivec2(clamp(x0 - OFFSET + f, 0, last), line);
    uvec4 t = uvec4(texelFetch(u_image, flip ? q.yx : q, 0) * 255.0 + 0.5);
    ring[base + uint(f)] = t.r | (t.g << 8) | (t.b << 16) | (t.a << 24);
    sum += t.rgb;
  }
  uint slot = 0u;  // the slot of tap x - OFFSET
  for (int xb = x0; xb < x1; xb += PREFETCH) {
    uvec4 heads[PREFETCH];  // the taps entering after outputs xb .. xb + PREFETCH - 1
    for (int u = 0; u < PREFETCH; ++u) {
      ivec2 head = ivec2(min(xb + u + OFFSET + 1, last), line);
      heads[u] = uvec4(texelFetch(u_image, flip ? head.yx : head, 0) * 255.0 + 0.5);
    }
    for (int u = 0; u < PREFETCH; ++u) {
      int x = xb + u;
      if (x >= x1) break;
      ivec2 q = ivec2(x, line);
      uint centre_slot = slot + uint(OFFSET);
      if (centre_slot >= uint(FILTER_DIM)) centre_slot -= uint(FILTER_DIM);
      uint alpha = ring[base + centre_slot] >> 24;
      uvec3 rgb = (sum + uint(FILTER_DIM / 2)) / uint(FILTER_DIM);
      imageStore(u_out, flip ? q.yx : q, vec4(uvec4(rgb, alpha)) / 255.0);
      uvec4 h = heads[u];
      uint tail = ring[base + slot];
      sum += h.rgb;  // adding first keeps the unsigned sum from going below zero
      sum -= uvec3(tail & 255u, (tail >> 8) & 255u, (tail >> 16) & 255u);
      ring[base + slot] = h.r | (h.g << 8) | (h.b << 16) | (h.a << 24);
      slot = slot + 1u == uint(FILTER_DIM) ? 0u : slot + 1u;
    }
  }
#else
  // The window of output x0, clamped to the edge (texelFetch outside the image is undefined).
  uvec3 sum = uvec3(0u);
  for (int f = -OFFSET; f <= OFFSET; ++f) {
    ivec2 q = ivec2(clamp(x0 + f, 0, last), line);
    sum += uvec3(texelFetch(u_image, flip ? q.yx : q, 0).rgb * 255.0 + 0.5);
  }
  for (int x = x0; x < x1; ++x) {
    ivec2 q = ivec2(x, line);
    ivec2 o = flip ? q.yx : q;
    uint alpha = uint(texelFetch(u_image, o, 0).a * 255.0 + 0.5);
    uvec3 rgb = (sum + uint(FILTER_DIM / 2)) / uint(FILTER_DIM);
    imageStore(u_out, o, vec4(uvec4(rgb, alpha)) / 255.0);
    // Slide: add the tap entering at x + OFFSET + 1, then drop the one leaving at x - OFFSET
    // (adding first keeps the unsigned sum from going below zero).
    ivec2 head = ivec2(min(x + OFFSET + 1, last), line);
    ivec2 tail = ivec2(max(x - OFFSET, 0), line);
    sum += uvec3(texelFetch(u_image, flip ? head.yx : head, 0).rgb * 255.0 + 0.5);
    sum -= uvec3(texelFetch(u_image, flip ? tail.yx : tail, 0).rgb * 255.0 + 0.5);
  }
#endif
}
