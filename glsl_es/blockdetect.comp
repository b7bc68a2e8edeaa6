// ffmpeg 5.1's blockdetect gradients of one plane (core/stages/block_detect.hpp), equal to
// core/stats/blockdetect.cpp's BlockDetector bit for bit: the same writes into the same
// persistent buffer, the same float sums in the same order.
//   u_pass 0  horizontal: an invocation per column i in 3..W-5 writes each row j >= 1's gradient
//             |s(i,j) - s(i+1,j)| / max(1, the six steps around it) at grad[j * W + i] and adds
//             them, row after row, into grad[i] (row 0) from what it held
//   u_pass 1  vertical: an invocation per row j in 3..H-5 the same down the rows, column after
//             column, into grad[j * W] (column 0); and every invocation k copies row 0's word k
//             (k < W) and column 0's word k (k < H) into the plane's slice of Sums, so the host
//             takes the plane's figure from there (the pass writes neither row 0 nor column 0's
//             other words, so the copies race with nothing)
// Each sum is one invocation's sequential IEEE adds (there is no multiply to fuse); each
// gradient the correctly rounded quotient of two integers (common/exact_quotient.glsl).
//   WG             invocations of a workgroup
//   PACKED_SOURCE  1: the plane is a byte of a packed RGBA buffer's words (binding 2), word
//                  y * W + x; 0: a byte of texel (x * u_texel.x + u_texel.y, y) of u_plane
#ifndef WG
#define WG 64
#endif
#ifndef PACKED_SOURCE
#define PACKED_SOURCE 0
#endif

layout(local_size_x = WG) in;

uniform ivec2 u_size;   // the plane's samples
uniform int u_channel;  // the byte of the texel or word
uniform int u_pass;
uniform uint u_slice;   // the plane's first word in Sums: row 0 (W words), then column 0 (H)
#if PACKED_SOURCE
layout(std430, binding = 2) readonly buffer Pixels { uint pixels[]; };
#else
uniform highp sampler2D u_plane;
uniform ivec2 u_texel;  // texel x = sample x * u_texel.x + u_texel.y
#endif

layout(std430, binding = 0) buffer Gradients { float grad[]; };
layout(std430, binding = 1) writeonly buffer Sums { float sums[]; };

#include "common/rgba8.glsl"
#include "common/exact_quotient.glsl"

int sampleAt(ivec2 p) {
#if PACKED_SOURCE
  return int(unpackPixel(pixels[uint(p.y) * uint(u_size.x) + uint(p.x)])[u_channel]);
#else
  ivec2 texel = ivec2(p.x * u_texel.x + u_texel.y, p.y);
  return int(texelBytes(texelFetch(u_plane, texel, 0))[u_channel]);
#endif
}

// ffmpeg's gradient at p along `step`: the step to the next sample over the six around it.
float gradientAt(ivec2 p, ivec2 step) {
  int v0 = sampleAt(p - 3 * step), v1 = sampleAt(p - 2 * step), v2 = sampleAt(p - step);
  int v3 = sampleAt(p), v4 = sampleAt(p + step), v5 = sampleAt(p + 2 * step);
  int v6 = sampleAt(p + 3 * step), v7 = sampleAt(p + 4 * step);
  int around = abs(v4 - v5) + abs(v5 - v6) + abs(v6 - v7) + abs(v3 - v2) + abs(v2 - v1) +
               abs(v1 - v0);
  return exactQuotient(uint(abs(v3 - v4)), uint(max(1, around)));
}

void main() {
  int k = int(gl_GlobalInvocationID.x);
  int w = u_size.x, h = u_size.y;
  if (u_pass == 0) {
    if (k < 3 || k >= w - 4) return;
    float acc = grad[k];
    for (int j = 1; j < h; ++j) {
      float g = gradientAt(ivec2(k, j), ivec2(1, 0));
      grad[uint(j) * uint(w) + uint(k)] = g;
      acc += g;
    }
    grad[k] = acc;
    return;
  }
  if (k < w) sums[u_slice + uint(k)] = grad[k];
  if (k >= h) return;
  uint row = uint(k) * uint(w);
  if (k >= 3 && k < h - 4) {
    float acc = grad[row];
    for (int i = 1; i < w; ++i) {
      float g = gradientAt(ivec2(i, k), ivec2(0, 1));
      grad[row + uint(i)] = g;
      acc += g;
    }
    grad[row] = acc;
  }
  sums[u_slice + uint(w) + uint(k)] = grad[row];
}
