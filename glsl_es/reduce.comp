// Per-channel min, max and 64-bit sum over an image (core/stages/reduce.hpp). Output: 4 words
// per channel slot k: { min, max, sum_lo, sum_hi } at result[4k..4k+3], written whole by the
// last workgroup (no clear per run).
//   CHANNELS, CHANNEL0..3, LUMA_601: common/channels.glsl. SOURCE_BUFFER as histogram.comp.
//   QUADS        quads of 4 consecutive pixels per invocation and grid-stride step
//   CARRY        1: invocation sums carry into a high word (the host sets 0 when no invocation
//                can pass 2^32: at most 16843009 pixels of 255 each)
//   SUBGROUP     1: reduce within subgroups first (GL_KHR_shader_subgroup_arithmetic; the host
//                enables it only where the extension exists), else a shared-memory tree
// One pass: every invocation reduces its pixels in registers, the workgroup combines them (in
// shared memory or subgroups) and stores its partial; the last workgroup to finish (by an
// atomic counter, which it resets) combines the partials and writes the output. No atomics
// on the output (16 words in one cache line: one per workgroup serialised badly) and no
// glBufferSubData per run (on an H200 a clear cost about as much GPU time as the reduce).
#if defined(SUBGROUP) && SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
#ifndef SOURCE_BUFFER
#define SOURCE_BUFFER 0
#endif
#ifndef WG_X
#define WG_X 256
#endif
#ifndef QUADS
#define QUADS 1
#endif
#ifndef CARRY
#define CARRY 1
#endif
#ifndef SUBGROUP
#define SUBGROUP 0
#endif
// ACCUMULATORS 0: each workgroup stores its partial and the last one combines them all;
// N > 0: each workgroup merges with atomics into accumulator (workgroup % N), and the last one
// empties the N accumulators (atomicExchange back to their start values).
#ifndef ACCUMULATORS
#define ACCUMULATORS 0
#endif
// BATCH_LOADS 1 (SOURCE_BUFFER): a step whose QUADS quads all lie in the image reads them all
// before reducing any, so an invocation has QUADS loads in flight (the loop below otherwise
// waits for each load: its early exit keeps the compiler from reading ahead).
#ifndef BATCH_LOADS
#define BATCH_LOADS 0
#endif

layout(local_size_x = WG_X) in;

#if SOURCE_BUFFER
// The same packed buffer twice: 16-byte loads of 4 pixels, and single words for the tail.
layout(std430, binding = 1) readonly buffer Quads { uvec4 quads[]; };
layout(std430, binding = 2) readonly buffer Image { uint pixels[]; };
#else
uniform highp sampler2D u_image;
#endif
uniform ivec2 u_size;
#include "common/channels.glsl"
#include "common/image_pixels.glsl"
layout(std430, binding = 0) writeonly buffer Result { uint result[]; };
#if ACCUMULATORS
// `done`, then ACCUMULATORS x CHANNELS x {min, max, lo, hi}; between runs done is zero and
// every accumulator {0xffffffff, 0, 0, 0}.
layout(std430, binding = 3) coherent buffer Partials {
  uint done;
  uint pad0, pad1, pad2;
  uint acc[];
};
#else
// `done`, then CHANNELS uvec4 (min, max, lo, hi) per workgroup. done is zero between runs.
layout(std430, binding = 3) coherent buffer Partials {
  uint done;
  uint pad0, pad1, pad2;
  uvec4 partials[];
};
#endif

// Constant initial values: a compiler sees no read of the accumulators before a write.
#if CHANNELS == 1
#define CHANNEL_ARRAY(v) uint[1](v)
#elif CHANNELS == 2
#define CHANNEL_ARRAY(v) uint[2](v, v)
#elif CHANNELS == 3
#define CHANNEL_ARRAY(v) uint[3](v, v, v)
#else
#define CHANNEL_ARRAY(v) uint[4](v, v, v, v)
#endif
uint mn[CHANNELS] = CHANNEL_ARRAY(0xffffffffu);
uint mx[CHANNELS] = CHANNEL_ARRAY(0u);
uint lo[CHANNELS] = CHANNEL_ARRAY(0u);
uint hi[CHANNELS] = CHANNEL_ARRAY(0u);

void accumulate(uvec4 c) {
  for (int k = 0; k < CHANNELS; ++k) {
    uint v = channelValue(c, CODES[k]);
    mn[k] = min(mn[k], v);
    mx[k] = max(mx[k], v);
#if CARRY
    uint carry;
    lo[k] = uaddCarry(lo[k], v, carry);
    hi[k] += carry;
#else
    lo[k] += v;
#endif
  }
}

// a += b for 64-bit values (lo, hi).
uvec2 add64(uvec2 a, uvec2 b) {
  uint carry;
  uint l = uaddCarry(a.x, b.x, carry);
  return uvec2(l, a.y + b.y + carry);
}

uvec4 combine(uvec4 a, uvec4 b) {
  return uvec4(min(a.x, b.x), max(a.y, b.y), add64(a.zw, b.zw));
}

#if SUBGROUP
shared uint s_min[CHANNELS];
shared uint s_max[CHANNELS];
shared uint s_lo[CHANNELS];
shared uint s_hi[CHANNELS];
#endif
// The tree: all channels at once, so each level costs one barrier whatever the channel count.
shared uvec4 tree[WG_X * CHANNELS];
shared bool s_last;

// Combines tree[0..WG_X) per channel into tree[0] (channel k at tree[k * WG_X]).
void treeReduce(uint lid) {
  memoryBarrierShared();
  barrier();
  // gl_NumWorkGroups.z is 1: a bound the compiler cannot see keeps the tree one loop rather
  // than log2(WG_X) unrolled levels (v3d kept 2 threads, Midgard spilled).
  for (uint s = 1u; s < uint(WG_X) * gl_NumWorkGroups.z; s <<= 1) {
    uint other = lid + s;
    if ((lid & (2u * s - 1u)) == 0u && other < uint(WG_X))
      for (int k = 0; k < CHANNELS; ++k) {
        uint b = uint(k * WG_X);
        tree[b + lid] = combine(tree[b + lid], tree[b + other]);
      }
    memoryBarrierShared();
    barrier();
  }
}

void main() {
  uint lid = gl_LocalInvocationIndex;
#if SUBGROUP
  if (lid == 0u) {
    for (int k = 0; k < CHANNELS; ++k) {
      s_min[k] = 0xffffffffu;
      s_max[k] = 0u;
      s_lo[k] = 0u;
      s_hi[k] = 0u;
    }
  }
#endif

  // Grid-stride over quads of 4 consecutive pixels: quad gid + m * threads.
  uint total = uint(u_size.x) * uint(u_size.y);
  uint nq = total >> 2;
  uint threads = gl_NumWorkGroups.x * uint(WG_X);
  uint gid = gl_GlobalInvocationID.x;
#if !SOURCE_BUFFER
  uint w = uint(u_size.x);
  uint step = threads * 4u;
  int dy = int(step / w), dx = int(step % w);
  int x = int((gid * 4u) % w), y = int((gid * 4u) / w);
#endif
  for (uint base = gid; base < nq; base += threads * uint(QUADS)) {
#if SOURCE_BUFFER && BATCH_LOADS
    if (base + uint(QUADS - 1) * threads < nq) {
      uvec4 batch[QUADS];
      for (int q = 0; q < QUADS; ++q) batch[q] = quads[base + uint(q) * threads];
      for (int q = 0; q < QUADS; ++q) {
        accumulate(unpackPixel(batch[q].x));
        accumulate(unpackPixel(batch[q].y));
        accumulate(unpackPixel(batch[q].z));
        accumulate(unpackPixel(batch[q].w));
      }
      continue;
    }
#endif
    for (int q = 0; q < QUADS; ++q) {
      uint i = base + uint(q) * threads;
      if (i >= nq) break;
#if SOURCE_BUFFER
      uvec4 v = quads[i];
      accumulate(unpackPixel(v.x));
      accumulate(unpackPixel(v.y));
      accumulate(unpackPixel(v.z));
      accumulate(unpackPixel(v.w));
#else
      accumulate(pixelAfter(x, y, 0));
      accumulate(pixelAfter(x, y, 1));
      accumulate(pixelAfter(x, y, 2));
      accumulate(pixelAfter(x, y, 3));
      x += dx;
      y += dy;
      if (x >= u_size.x) {
        x -= u_size.x;
        ++y;
      }
#endif
    }
  }
  // The last total % 4 pixels: the first invocation of the dispatch.
  if (gid == 0u) {
    for (uint i = nq * 4u; i < total; ++i) accumulate(pixelAtIndex(i));
  }

  // This workgroup's partial per channel into `partials`.
  uint part = gl_WorkGroupID.x * uint(CHANNELS);
#if SUBGROUP
  memoryBarrierShared();
  barrier();  // s_* initialised
  for (int k = 0; k < CHANNELS; ++k) {
    uint smin = subgroupMin(mn[k]);
    uint smax = subgroupMax(mx[k]);
    // 64-bit sums from 32-bit subgroup adds: the low word in 16-bit halves (a subgroup has at
    // most 128 invocations, so no half-sum passes 2^23).
    uint s0 = subgroupAdd(lo[k] & 0xffffu);
    uint s1 = subgroupAdd(lo[k] >> 16);
    uint sh = subgroupAdd(hi[k]);
    uvec2 sum = add64(uvec2(s0, sh), uvec2(s1 << 16, s1 >> 16));
    if (subgroupElect()) {
      atomicMin(s_min[k], smin);
      atomicMax(s_max[k], smax);
      uint old = atomicAdd(s_lo[k], sum.x);
      atomicAdd(s_hi[k], sum.y + (old + sum.x < old ? 1u : 0u));
    }
  }
  memoryBarrierShared();
  barrier();
  for (int k = 0; k < CHANNELS; ++k)
    if (lid == 0u) tree[uint(k * WG_X)] = uvec4(s_min[k], s_max[k], s_lo[k], s_hi[k]);
  memoryBarrierShared();
  barrier();
#else
  // Shared-memory tree (WG_X x CHANNELS uvec4s of shared memory).
  for (int k = 0; k < CHANNELS; ++k) tree[uint(k * WG_X) + lid] = uvec4(mn[k], mx[k], lo[k], hi[k]);
  treeReduce(lid);
#endif
  // The workgroup's result per channel is now tree[k * WG_X].
#if ACCUMULATORS
  if (lid < uint(CHANNELS)) {
    uvec4 v = tree[lid * uint(WG_X)];
    uint a = ((gl_WorkGroupID.x % uint(ACCUMULATORS)) * uint(CHANNELS) + lid) * 4u;
    atomicMin(acc[a], v.x);
    atomicMax(acc[a + 1u], v.y);
    uint old = atomicAdd(acc[a + 2u], v.z);
    atomicAdd(acc[a + 3u], v.w + (old + v.z < old ? 1u : 0u));
  }
#else
  if (lid == 0u)
    for (int k = 0; k < CHANNELS; ++k) partials[part + uint(k)] = tree[uint(k * WG_X)];
#endif

  // The last workgroup to finish combines every partial: each workgroup's stores are ordered
  // before its increment of `done` (buffer barrier, then the workgroup barrier).
  memoryBarrierBuffer();
  barrier();
  if (lid == 0u) s_last = atomicAdd(done, 1u) == gl_NumWorkGroups.x - 1u;
  memoryBarrierShared();
  barrier();
  // s_last is the same for the whole workgroup: the barriers below stay in uniform flow.
  if (s_last) {
    memoryBarrierBuffer();
#if ACCUMULATORS
    for (int k = 0; k < CHANNELS; ++k) tree[uint(k * WG_X) + lid] = uvec4(0xffffffffu, 0u, 0u, 0u);
    memoryBarrierShared();
    barrier();
    // Accumulator j of channel k into tree[k * WG_X + j] (ACCUMULATORS <= WG_X), reset.
    for (uint i = lid; i < uint(ACCUMULATORS * CHANNELS); i += uint(WG_X)) {
      uint j = i / uint(CHANNELS), k = i - j * uint(CHANNELS), a = i * 4u;
      tree[k * uint(WG_X) + j] =
          uvec4(atomicExchange(acc[a], 0xffffffffu), atomicExchange(acc[a + 1u], 0u),
                atomicExchange(acc[a + 2u], 0u), atomicExchange(acc[a + 3u], 0u));
    }
#else
    for (int k = 0; k < CHANNELS; ++k) {
      uvec4 r = uvec4(0xffffffffu, 0u, 0u, 0u);
      for (uint g = lid; g < gl_NumWorkGroups.x; g += uint(WG_X))
        r = combine(r, partials[g * uint(CHANNELS) + uint(k)]);
      tree[uint(k * WG_X) + lid] = r;
    }
#endif
    treeReduce(lid);
    if (lid == 0u) {
      for (int k = 0; k < CHANNELS; ++k) {
        uvec4 t = tree[uint(k * WG_X)];
        result[4 * k] = t.x;
        result[4 * k + 1] = t.y;
        result[4 * k + 2] = t.z;
        result[4 * k + 3] = t.w;
      }
    }
    if (lid == 0u) atomicExchange(done, 0u);
  }
}
