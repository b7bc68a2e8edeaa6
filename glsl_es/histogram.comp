// Histogram of up to 4 channels (R, G, B, integer luma) in one pass. core/stages/histogram.hpp
// describes the strategies and the output layout: bins[bin * CHANNELS + k].
//   STRATEGY  0 single, 1 global-atomic, 2 chunk (chunk-sum / chunk-reduce), 3 persistent,
//             4 replicated (persistent over quads of 4 pixels into REPLICAS shared copies)
//   BINS 1..256; bin = (v * BINS) >> 8.  CHANNELS, CHANNEL0..3, LUMA_601: common/channels.glsl.
//   SOURCE_BUFFER  0: texelFetch from u_image; 1: packed uint pixels at binding 1.
#ifndef STRATEGY
#define STRATEGY 3
#endif
#ifndef BINS
#define BINS 256
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
// replicated: shared sub-histograms per workgroup, and run-length aggregation within a quad.
#ifndef REPLICAS
#define REPLICAS 1
#endif
#ifndef RUN_LENGTH
#define RUN_LENGTH 0
#endif
// replicated from the packed buffer: read a step's quads together (see the counting loop).
#ifndef BATCH_LOADS
#define BATCH_LOADS 0
#endif

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

#if SOURCE_BUFFER && STRATEGY == 4
// The same packed buffer twice: 16-byte loads of 4 pixels, and single words for the tail.
layout(std430, binding = 1) readonly buffer Quads { uvec4 quads[]; };
layout(std430, binding = 2) readonly buffer Image { uint pixels[]; };
#elif SOURCE_BUFFER
layout(std430, binding = 1) readonly buffer Image { uint pixels[]; };
#else
uniform highp sampler2D u_image;
#endif
uniform ivec2 u_size;
#include "common/channels.glsl"
#include "common/image_pixels.glsl"

#if STRATEGY == 2
layout(std430, binding = 0) writeonly buffer Chunks { uint chunks[]; };
#elif STRATEGY == 4
// replicated: the output is written, never added to, so the host clears nothing per run (a
// glBufferSubData clear cost about as much GPU time as the histogram on an H200). Workgroups
// add into `acc`; the last one to finish (by `done`) moves acc into bins and leaves acc and
// done at zero for the next run (the host zeroes them once, when it creates the stage).
layout(std430, binding = 0) writeonly buffer Bins { uint bins[]; };
layout(std430, binding = 3) coherent buffer Acc {
  uint done;
  uint acc[];
};
#else
layout(std430, binding = 0) buffer Bins { uint bins[]; };
#endif

const uint WORDS = uint(BINS * CHANNELS);
const uint INVOCATIONS = uint(WG_X * WG_Y);
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

#if STRATEGY == 4
#ifndef PLANAR
#define PLANAR 0
#endif
// The word of channel k's bin within a replica: PLANAR lays each channel's bins out together,
// so that neighbouring bins of one channel sit on neighbouring banks.
uint sharedWordOf(uvec4 c, int k) {
#if PLANAR
  return uint(k * BINS) + ((channelValue(c, CODES[k]) * uint(BINS)) >> 8);
#else
  return wordOf(c, k);
#endif
}

// The output word of shared word i (bins[bin * CHANNELS + k] whatever the shared layout).
uint outputWordOf(uint i) {
#if PLANAR
  return (i % uint(BINS)) * uint(CHANNELS) + i / uint(BINS);
#else
  return i;
#endif
}

// Replica r occupies words [r * REP_STRIDE, r * REP_STRIDE + WORDS). An odd stride puts the
// same bin of different replicas into different banks (the flat frame: every pixel one bin).
const uint REP_STRIDE = (WORDS % 2u == 0u && REPLICAS > 1) ? WORDS + 1u : WORDS;
const uint SHARED_WORDS = REP_STRIDE * uint(REPLICAS);
shared uint counts[SHARED_WORDS];

void add(uint word, uint n) {
  atomicAdd(counts[word], n);
}

#if SOURCE_BUFFER && BINS == 256 && CHANNELS == 4 && !PLANAR && !RUN_LENGTH
#define PACKED_WORDS 1
// The common case (256 bins of 4 channels, bin * 4 + k in shared memory) from the packed pixel:
// byte `code` moved to bits 2..9 with one shift and one mask, no unpacking and no bin scaling.
// Faster than countQuad on NVIDIA (bench/results/h100-histogram-floor.md).
uint packedWord(uint p, int k) {
  int code = CODES[k];
  uint v;
  if (code == 3)
    v = channelValue(unpackPixel(p), 3) << 2;
  else if (code == 0)
    v = (p << 2) & 0x3FCu;
  else
    v = (p >> uint(8 * code - 2)) & 0x3FCu;
  return v + uint(k);
}

void countPacked(uvec4 q, uint rep) {
  for (int k = 0; k < CHANNELS; ++k) {
    uint w0 = packedWord(q.x, k), w1 = packedWord(q.y, k), w2 = packedWord(q.z, k),
         w3 = packedWord(q.w, k);
    add(rep + w0, 1u);
    add(rep + w1, 1u);
    add(rep + w2, 1u);
    add(rep + w3, 1u);
  }
}
#else
#define PACKED_WORDS 0
#endif

// Four pixels (in memory order) into replica `rep`: per channel, runs of equal bins add once.
void countQuad(uvec4 c0, uvec4 c1, uvec4 c2, uvec4 c3, uint rep) {
  for (int k = 0; k < CHANNELS; ++k) {
    uint w0 = rep + sharedWordOf(c0, k), w1 = rep + sharedWordOf(c1, k);
    uint w2 = rep + sharedWordOf(c2, k), w3 = rep + sharedWordOf(c3, k);
#if RUN_LENGTH
    uint n = 1u;
    if (w1 == w0) {
      ++n;
    } else {
      add(w0, n);
      n = 1u;
    }
    if (w2 == w1) {
      ++n;
    } else {
      add(w1, n);
      n = 1u;
    }
    if (w3 == w2) {
      ++n;
    } else {
      add(w2, n);
      n = 1u;
    }
    add(w3, n);
#else
    add(w0, 1u);
    add(w1, 1u);
    add(w2, 1u);
    add(w3, 1u);
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
#elif STRATEGY == 3
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
#elif STRATEGY == 4
  // replicated: grid-stride over quads of 4 consecutive pixels (16-byte loads from the packed
  // buffer); quad q of this invocation's sequence is gid + m * threads. PIXELS_PER_INVOCATION / 4
  // quads per step.
  for (uint i = gl_LocalInvocationIndex; i < SHARED_WORDS; i += INVOCATIONS) counts[i] = 0u;
  memoryBarrierShared();
  barrier();
  const int QUADS = PIXELS_PER_INVOCATION / 4;
  uint rep = (gl_LocalInvocationIndex % uint(REPLICAS)) * REP_STRIDE;
  uint total = uint(u_size.x) * uint(u_size.y);
  uint nq = total >> 2;
  uint threads = gl_NumWorkGroups.x * INVOCATIONS;
  uint gid = gl_GlobalInvocationID.x;
#if !SOURCE_BUFFER
  // Row-major position of this invocation's current quad, advanced by threads * 4 pixels.
  uint w = uint(u_size.x);
  uint step = threads * 4u;
  int dy = int(step / w), dx = int(step % w);
  int x = int((gid * 4u) % w), y = int((gid * 4u) / w);
#endif
  for (uint base = gid; base < nq; base += threads * uint(QUADS)) {
#if SOURCE_BUFFER && BATCH_LOADS
    // The whole step inside the image: every load first, so they are in flight together (the
    // loop below waits for each: its early exit keeps the compiler from reading ahead).
    if (base + uint(QUADS - 1) * threads < nq) {
      uvec4 batch[QUADS];
      for (int k = 0; k < QUADS; ++k) batch[k] = quads[base + uint(k) * threads];
      for (int k = 0; k < QUADS; ++k) {
#if PACKED_WORDS
        countPacked(batch[k], rep);
#else
        countQuad(unpackPixel(batch[k].x), unpackPixel(batch[k].y), unpackPixel(batch[k].z),
                  unpackPixel(batch[k].w), rep);
#endif
      }
      continue;
    }
#endif
    for (int k = 0; k < QUADS; ++k) {
      uint q = base + uint(k) * threads;
      if (q >= nq) break;
#if SOURCE_BUFFER
      uvec4 v = quads[q];
#if PACKED_WORDS
      countPacked(v, rep);
#else
      countQuad(unpackPixel(v.x), unpackPixel(v.y), unpackPixel(v.z), unpackPixel(v.w), rep);
#endif
#else
      countQuad(pixelAfter(x, y, 0), pixelAfter(x, y, 1), pixelAfter(x, y, 2), pixelAfter(x, y, 3),
                rep);
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
      uvec4 c = pixelAtIndex(i);
      for (int k = 0; k < CHANNELS; ++k) add(rep + sharedWordOf(c, k), 1u);
    }
  }
  memoryBarrierShared();
  barrier();
  // Merge the replicas once into acc.
  for (uint i = gl_LocalInvocationIndex; i < WORDS; i += INVOCATIONS) {
    uint sum = 0u;
    for (int r = 0; r < REPLICAS; ++r) sum += counts[uint(r) * REP_STRIDE + i];
    if (sum != 0u) atomicAdd(acc[outputWordOf(i)], sum);
  }
  // The last workgroup to get here owns the total: every other workgroup's adds are ordered
  // before its increment of `done` (buffer barrier, then the workgroup barrier).
  memoryBarrierBuffer();
  barrier();
  if (gl_LocalInvocationIndex == 0u)
    counts[0] = atomicAdd(done, 1u) == gl_NumWorkGroups.x - 1u ? 1u : 0u;
  memoryBarrierShared();
  barrier();
  if (counts[0] == 1u) {
    for (uint i = gl_LocalInvocationIndex; i < WORDS; i += INVOCATIONS)
      bins[i] = atomicExchange(acc[i], 0u);
    if (gl_LocalInvocationIndex == 0u) atomicExchange(done, 0u);
  }
#endif
}
