// Per-channel min, max and 64-bit sum over an image (core/stages/reduce.hpp). Output: 4 words
// per channel slot k: { min, max, sum_lo, sum_hi } at result[4k..4k+3]; the host sets them to
// { 0xffffffff, 0, 0, 0 } first.
//   CHANNELS 1..4, CHANNEL0..3: 0 r, 1 g, 2 b, 3 luma. LUMA_601, SOURCE_BUFFER as histogram.comp.
//   QUADS        quads of 4 consecutive pixels per invocation and grid-stride step
//   CARRY        1: invocation sums carry into a high word (the host sets 0 when no invocation
//                can pass 2^32: at most 16843009 pixels of 255 each)
//   SUBGROUP     1: reduce within subgroups first (GL_KHR_shader_subgroup_arithmetic; the host
//                enables it only where the extension exists), else a shared-memory tree
// One pass: every invocation reduces its pixels in registers, the workgroup combines them in
// shared memory, and one invocation per workgroup merges with atomics into the output.
#if SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
#ifndef CHANNELS
#define CHANNELS 4
#define CHANNEL0 0
#define CHANNEL1 1
#define CHANNEL2 2
#define CHANNEL3 3
#endif
#ifndef LUMA_601
#define LUMA_601 0
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

layout(local_size_x = WG_X) in;

#if SOURCE_BUFFER
// The same packed buffer twice: 16-byte loads of 4 pixels, and single words for the tail.
layout(std430, binding = 1) readonly buffer Quads { uvec4 quads[]; };
layout(std430, binding = 2) readonly buffer Image { uint pixels[]; };
#else
uniform highp sampler2D u_image;
#endif
uniform ivec2 u_size;
layout(std430, binding = 0) buffer Result { uint result[]; };

const int CODES[4] = int[4](CHANNEL0,
#if CHANNELS > 1
                            CHANNEL1,
#else
                            0,
#endif
#if CHANNELS > 2
                            CHANNEL2,
#else
                            0,
#endif
#if CHANNELS > 3
                            CHANNEL3);
#else
                            0);
#endif

uint channelValue(uvec4 c, int code) {
  if (code == 0) return c.r;
  if (code == 1) return c.g;
  if (code == 2) return c.b;
#if LUMA_601
  return (77u * c.r + 150u * c.g + 29u * c.b + 128u) >> 8;
#else
  return (13933u * c.r + 46871u * c.g + 4732u * c.b + 32768u) >> 16;
#endif
}

uvec4 unpackPixel(uint v) {
  return uvec4(v & 255u, (v >> 8) & 255u, (v >> 16) & 255u, v >> 24);
}

#if !SOURCE_BUFFER
uvec4 texel(int x, int y) {
  return uvec4(texelFetch(u_image, ivec2(x, y), 0) * 255.0 + 0.5);  // unorm8: exact
}
// Pixel (x + j, y) in row-major order wrapped onto the next rows (j <= 3: no division, no loop).
uvec4 texelAfter(int x, int y, int j) {
  int px = x + j, py = y;
  if (px >= u_size.x) {
    px -= u_size.x;
    ++py;
  }
  if (px >= u_size.x) {
    px -= u_size.x;
    ++py;
  }
  if (px >= u_size.x) {
    px -= u_size.x;
    ++py;
  }
  return texel(px, py);
}
#endif

uint mn[CHANNELS], mx[CHANNELS], lo[CHANNELS], hi[CHANNELS];

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

// Merges (min, max, lo, hi) of channel slot k into the output: 64-bit add as two 32-bit
// atomics; atomicAdd returns the old low word, and the add carried exactly when old + lo
// wrapped below old.
void mergeOut(int k, uvec4 r) {
  atomicMin(result[4 * k], r.x);
  atomicMax(result[4 * k + 1], r.y);
  uint old = atomicAdd(result[4 * k + 2], r.z);
  atomicAdd(result[4 * k + 3], r.w + (old + r.z < old ? 1u : 0u));
}

#if SUBGROUP
shared uint s_min[CHANNELS];
shared uint s_max[CHANNELS];
shared uint s_lo[CHANNELS];
shared uint s_hi[CHANNELS];
#else
shared uvec4 tree[WG_X];
#endif

void main() {
  for (int k = 0; k < CHANNELS; ++k) {
    mn[k] = 0xffffffffu;
    mx[k] = 0u;
    lo[k] = 0u;
    hi[k] = 0u;
  }
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
      accumulate(texelAfter(x, y, 0));
      accumulate(texelAfter(x, y, 1));
      accumulate(texelAfter(x, y, 2));
      accumulate(texelAfter(x, y, 3));
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
    for (uint i = nq * 4u; i < total; ++i) {
#if SOURCE_BUFFER
      accumulate(unpackPixel(pixels[i]));
#else
      accumulate(texel(int(i % uint(u_size.x)), int(i / uint(u_size.x))));
#endif
    }
  }

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
  if (lid == 0u)
    for (int k = 0; k < CHANNELS; ++k) mergeOut(k, uvec4(s_min[k], s_max[k], s_lo[k], s_hi[k]));
#else
  // Shared-memory tree, one channel at a time (WG_X uvec4s of shared memory).
  for (int k = 0; k < CHANNELS; ++k) {
    tree[lid] = uvec4(mn[k], mx[k], lo[k], hi[k]);
    memoryBarrierShared();
    barrier();
    for (uint s = 1u; s < uint(WG_X); s <<= 1) {
      uint other = lid + s;
      if ((lid & (2u * s - 1u)) == 0u && other < uint(WG_X)) {
        uvec4 a = tree[lid], b = tree[other];
        tree[lid] = uvec4(min(a.x, b.x), max(a.y, b.y), add64(a.zw, b.zw));
      }
      memoryBarrierShared();
      barrier();
    }
    if (lid == 0u) mergeOut(k, tree[0]);
    memoryBarrierShared();
    barrier();  // tree[0] read before the next channel overwrites it
  }
#endif
}
