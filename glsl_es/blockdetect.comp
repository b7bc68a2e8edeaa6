// ffmpeg 5.1's blockdetect gradients of one plane (core/stages/block_detect.hpp), equal to
// core/stats/blockdetect.cpp's BlockDetector bit for bit: the same writes into the same
// persistent buffer, the same float sums in the same order.
//   u_pass 0  horizontal gradients: each row j >= 1's |s(i,j) - s(i+1,j)| / max(1, the six
//             steps around it) at grad[j * W + i], i in 3..W-5; an invocation a run of RUN
//             columns of a row (x: the run, y: the row - 1)
//   u_pass 1  an invocation per column i in 3..W-5 adds them, row after row, into grad[i]
//             (row 0) from what it held
//   u_pass 2  vertical gradients the same down the columns i in 1..W-1, rows 3..H-5 (x: the
//             column, y: the run of rows), over the horizontal ones there, as ffmpeg does
//   u_pass 3  an invocation per row j in 3..H-5 adds them, column after column, into
//             grad[j * W] (column 0); and every invocation k copies row 0's word k (k < W) and
//             column 0's word k (k < H) into the plane's slice of Sums, so the host takes the
//             plane's figure from there (the pass writes neither row 0 nor column 0's other
//             words, so the copies race with nothing)
// The gradients need no order; each sum is one invocation's sequential IEEE adds in ffmpeg's
// order (there is no multiply to fuse); each gradient the correctly rounded quotient of two
// integers (common/exact_quotient.glsl).
//   WG             invocations of a workgroup
//   RUN            gradients an invocation writes in passes 0 and 2
//   PACKED_SOURCE  1: the plane is a byte of a packed RGBA buffer's words (binding 2), word
//                  y * W + x; 0: a byte of texel (x * u_texel.x + u_texel.y, y) of u_plane
#ifndef WG
#define WG 64
#endif
#ifndef RUN
#define RUN 16
#endif
#ifndef PACKED_SOURCE
#define PACKED_SOURCE 0
#endif

layout(local_size_x = WG) in;

uniform ivec2 u_size;   // the plane's samples
uniform int u_channel;  // the byte of the texel or word
uniform int u_pass;
uniform uint u_slice;  // the plane's first word in Sums: row 0 (W words), then column 0 (H)
#if PACKED_SOURCE
layout(std430, binding = 2) readonly buffer Pixels {
  uint pixels[];
};
#else
uniform highp sampler2D u_plane;
uniform ivec2 u_texel;  // texel x = sample x * u_texel.x + u_texel.y
#endif

layout(std430, binding = 0) buffer Gradients {
  float grad[];
};
layout(std430, binding = 1) writeonly buffer Sums {
  float sums[];
};

#include "common/exact_quotient.glsl"
#include "common/rgba8.glsl"

int sampleAt(ivec2 p) {
#if PACKED_SOURCE
  return int(unpackPixel(pixels[uint(p.y) * uint(u_size.x) + uint(p.x)])[u_channel]);
#else
  ivec2 texel = ivec2(p.x * u_texel.x + u_texel.y, p.y);
  return int(texelBytes(texelFetch(u_plane, texel, 0))[u_channel]);
#endif
}

// ffmpeg's gradients along `step` from p on, `count` of them (one window of eight samples slid
// one sample a gradient), each |v3 - v4| over the six steps around it, written at grad[p].
void writeGradients(ivec2 p, ivec2 step, int count) {
  int v0 = sampleAt(p - 3 * step), v1 = sampleAt(p - 2 * step), v2 = sampleAt(p - step);
  int v3 = sampleAt(p), v4 = sampleAt(p + step), v5 = sampleAt(p + 2 * step);
  int v6 = sampleAt(p + 3 * step);
  for (int n = 0; n < count; ++n) {
    int v7 = sampleAt(p + 4 * step);
    int around =
        abs(v4 - v5) + abs(v5 - v6) + abs(v6 - v7) + abs(v3 - v2) + abs(v2 - v1) + abs(v1 - v0);
    grad[uint(p.y) * uint(u_size.x) + uint(p.x)] =
        exactQuotient(uint(abs(v3 - v4)), uint(max(1, around)));
    v0 = v1, v1 = v2, v2 = v3, v3 = v4, v4 = v5, v5 = v6, v6 = v7;
    p += step;
  }
}

void main() {
  int k = int(gl_GlobalInvocationID.x), run = int(gl_GlobalInvocationID.y) * RUN;
  int w = u_size.x, h = u_size.y;
  if (u_pass == 0) {  // run k of row j: columns 3 + k * RUN on, up to W-5
    int j = int(gl_GlobalInvocationID.y) + 1, first = 3 + k * RUN;
    if (j < h && first < w - 4)
      writeGradients(ivec2(first, j), ivec2(1, 0), min(RUN, w - 4 - first));
  } else if (u_pass == 1) {  // column k's sum, row after row
    if (k < 3 || k >= w - 4) return;
    float acc = grad[k];
    for (int j = 1; j < h; ++j) acc += grad[uint(j) * uint(w) + uint(k)];
    grad[k] = acc;
  } else if (u_pass == 2) {  // column k, rows 3 + run on, up to H-5
    int first = 3 + run;
    if (k >= 1 && k < w && first < h - 4)
      writeGradients(ivec2(k, first), ivec2(0, 1), min(RUN, h - 4 - first));
  } else {  // row k's sum, column after column; the slice's copies
    if (k < w) sums[u_slice + uint(k)] = grad[k];
    if (k >= h) return;
    uint row = uint(k) * uint(w);
    if (k >= 3 && k < h - 4) {
      float acc = grad[row];
      for (int i = 1; i < w; ++i) acc += grad[row + uint(i)];
      grad[row] = acc;
    }
    sums[u_slice + uint(w) + uint(k)] = grad[row];
  }
}
