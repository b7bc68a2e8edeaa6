// Histogram of up to 4 channels (R, G, B, integer luma) in one pass. core/stages/histogram.hpp
// describes the strategies and the output layout: bins[bin * CHANNELS + k].
//   STRATEGY  0 single, 1 global-atomic, 2 chunk (chunk-sum / chunk-reduce), 3 persistent
//   BINS 1..256; bin = (v * BINS) >> 8.  CHANNELS 1..4, CHANNEL0..3: 0 r, 1 g, 2 b, 3 luma.
//   LUMA_601  0: BT.709 (13933, 46871, 4732) / 65536; 1: BT.601 (77, 150, 29) / 256; rounded.
//   SOURCE_BUFFER  0: texelFetch from u_image; 1: packed uint pixels at binding 1.
#ifndef STRATEGY
#define STRATEGY 3
#endif
#ifndef BINS
#define BINS 256
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
#ifndef WG_Y
#define WG_Y 1
#endif
#ifndef PIXELS_PER_INVOCATION
#define PIXELS_PER_INVOCATION 4
#endif
#ifndef SHARED_ATOMICS
#define SHARED_ATOMICS 1
#endif

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

#if SOURCE_BUFFER
layout(std430, binding = 1) readonly buffer Image { uint pixels[]; };
#else
uniform highp sampler2D u_image;
#endif
uniform ivec2 u_size;

#if STRATEGY == 2
layout(std430, binding = 0) writeonly buffer Chunks { uint chunks[]; };
#else
layout(std430, binding = 0) buffer Bins { uint bins[]; };
#endif

const uint WORDS = uint(BINS * CHANNELS);
const uint INVOCATIONS = uint(WG_X * WG_Y);
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

uvec4 pixelAt(ivec2 p) {
#if SOURCE_BUFFER
  uint v = pixels[uint(p.y) * uint(u_size.x) + uint(p.x)];
  return uvec4(v & 255u, (v >> 8) & 255u, (v >> 16) & 255u, v >> 24);
#else
  // unorm8 -> float is c / 255: scaling back and rounding gives c exactly.
  return uvec4(texelFetch(u_image, p, 0) * 255.0 + 0.5);
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

// The output word of channel slot k for pixel c.
uint wordOf(uvec4 c, int k) {
  return ((channelValue(c, CODES[k]) * uint(BINS)) >> 8) * uint(CHANNELS) + uint(k);
}

#if STRATEGY == 2 || STRATEGY == 3
shared uint counts[WORDS];

void clearShared() {
  for (uint i = gl_LocalInvocationIndex; i < WORDS; i += INVOCATIONS) counts[i] = 0u;
  memoryBarrierShared();
  barrier();
}

void countShared(uvec4 c) {
  for (int k = 0; k < CHANNELS; ++k) {
#if SHARED_ATOMICS
    atomicAdd(counts[wordOf(c, k)], 1u);
#else
    // Only valid with one invocation per workgroup (validated on the host).
    counts[wordOf(c, k)] += 1u;
#endif
  }
}
#endif

void main() {
#if STRATEGY == 0
  // single: this one invocation owns the whole output, no atomics needed.
  for (uint i = 0u; i < WORDS; ++i) bins[i] = 0u;
  for (int y = 0; y < u_size.y; ++y)
    for (int x = 0; x < u_size.x; ++x) {
      uvec4 c = pixelAt(ivec2(x, y));
      for (int k = 0; k < CHANNELS; ++k) bins[wordOf(c, k)] += 1u;
    }
#elif STRATEGY == 1
  // global-atomic: the host zeroed the output.
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= u_size.x || p.y >= u_size.y) return;
  uvec4 c = pixelAt(p);
  for (int k = 0; k < CHANNELS; ++k) atomicAdd(bins[wordOf(c, k)], 1u);
#elif STRATEGY == 2
  // chunk: this workgroup's tile into shared memory, then the whole chunk out (zeros too, so
  // the summing pass reads no stale words).
  clearShared();
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x < u_size.x && p.y < u_size.y) countShared(pixelAt(p));
  memoryBarrierShared();
  barrier();
  uint chunk = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  for (uint i = gl_LocalInvocationIndex; i < WORDS; i += INVOCATIONS)
    chunks[chunk * WORDS + i] = counts[i];
#else
  // persistent: grid-stride loop; step s covers pixels [s, s + stride), each invocation
  // PIXELS_PER_INVOCATION of them spaced `threads` apart, so neighbours read neighbours.
  clearShared();
  uint total = uint(u_size.x) * uint(u_size.y);
  uint threads = gl_NumWorkGroups.x * INVOCATIONS;
  uint stride = threads * uint(PIXELS_PER_INVOCATION);
  for (uint base = gl_GlobalInvocationID.x; base < total; base += stride) {
    for (int k = 0; k < PIXELS_PER_INVOCATION; ++k) {
      uint i = base + uint(k) * threads;
      if (i >= total) break;
      countShared(pixelAt(ivec2(int(i % uint(u_size.x)), int(i / uint(u_size.x)))));
    }
  }
  memoryBarrierShared();
  barrier();
  // Merge once; the host zeroed the output.
  for (uint i = gl_LocalInvocationIndex; i < WORDS; i += INVOCATIONS)
    if (counts[i] != 0u) atomicAdd(bins[i], counts[i]);
#endif
}
