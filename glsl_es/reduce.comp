// Per-channel min, max and 64-bit sum over an image (core/stages/reduce.hpp). Output: 4 words
// per channel slot k: { min, max, sum_lo, sum_hi } at result[4k..4k+3]; the host sets them to
// { 0xffffffff, 0, 0, 0 } first.
//   CHANNELS 1..4, CHANNEL0..3: 0 r, 1 g, 2 b, 3 luma. LUMA_601, SOURCE_BUFFER as histogram.comp.
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

layout(local_size_x = WG_X) in;

#if SOURCE_BUFFER
layout(std430, binding = 1) readonly buffer Image { uint pixels[]; };
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

uvec4 pixelAt(uint i) {
#if SOURCE_BUFFER
  uint v = pixels[i];
  return uvec4(v & 255u, (v >> 8) & 255u, (v >> 16) & 255u, v >> 24);
#else
  ivec2 p = ivec2(int(i % uint(u_size.x)), int(i / uint(u_size.x)));
  return uvec4(texelFetch(u_image, p, 0) * 255.0 + 0.5);  // unorm8 back to its exact integer
#endif
}

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

shared uint s_min[CHANNELS];
shared uint s_max[CHANNELS];
shared uint s_lo[CHANNELS];
shared uint s_hi[CHANNELS];

void main() {
  if (gl_LocalInvocationIndex == 0u) {
    for (int k = 0; k < CHANNELS; ++k) {
      s_min[k] = 0xffffffffu;
      s_max[k] = 0u;
      s_lo[k] = 0u;
      s_hi[k] = 0u;
    }
  }
  memoryBarrierShared();
  barrier();

  uint mn[CHANNELS], mx[CHANNELS], lo[CHANNELS], hi[CHANNELS];
  for (int k = 0; k < CHANNELS; ++k) {
    mn[k] = 0xffffffffu;
    mx[k] = 0u;
    lo[k] = 0u;
    hi[k] = 0u;
  }
  uint total = uint(u_size.x) * uint(u_size.y);
  uint stride = gl_NumWorkGroups.x * uint(WG_X);
  for (uint i = gl_GlobalInvocationID.x; i < total; i += stride) {
    uvec4 c = pixelAt(i);
    for (int k = 0; k < CHANNELS; ++k) {
      uint v = channelValue(c, CODES[k]);
      mn[k] = min(mn[k], v);
      mx[k] = max(mx[k], v);
      uint carry;
      lo[k] = uaddCarry(lo[k], v, carry);
      hi[k] += carry;
    }
  }

  // 64-bit atomic add as two 32-bit ones: atomicAdd returns the old low word, and the add
  // carried exactly when old + lo wrapped below old.
  for (int k = 0; k < CHANNELS; ++k) {
    atomicMin(s_min[k], mn[k]);
    atomicMax(s_max[k], mx[k]);
    uint old = atomicAdd(s_lo[k], lo[k]);
    atomicAdd(s_hi[k], hi[k] + (old + lo[k] < old ? 1u : 0u));
  }
  memoryBarrierShared();
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    for (int k = 0; k < CHANNELS; ++k) {
      atomicMin(result[4 * k], s_min[k]);
      atomicMax(result[4 * k + 1], s_max[k]);
      uint old = atomicAdd(result[4 * k + 2], s_lo[k]);
      atomicAdd(result[4 * k + 3], s_hi[k] + (old + s_lo[k] < old ? 1u : 0u));
    }
  }
}
