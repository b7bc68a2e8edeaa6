// blurdetect's per-pixel passes over one of a frame's ffmpeg planes (core/stages/blur_detect.hpp),
// each equal to core/stats/blurdetect.cpp's step of the same name, in integers. One word per
// sample in each buffer, at index y * W + x of the plane's own width W:
//   PASS 0  gaussian   the plane (texel (x * u_step_x + u_offset_x, y) of u_plane, or with
//                      PACKED_SOURCE that pixel of the packed RGBA buffer at binding 1; byte
//                      u_channel) -> smoothed: the 5x5 Gaussian over 159, two rows and columns
//                      at each edge copied; the workgroup's samples and two around them read
//                      once into shared memory ((WG_X + 4) * (WG_Y + 4) words)
//   PASS 1  sobel      smoothed -> gradients (binding 1, kept across planes and frames): the
//                      interior's |gx| + |gy| in bits 0-15 and the rounded direction in 16-17;
//                      the border's words stay as an earlier plane or frame left them
//   PASS 2  nms        gradients -> edges (binding 2): the interior's gradients above both
//                      neighbours across the edge, clipped to 8 bits, with the direction in bits
//                      8-9; 0 elsewhere
//   PASS 3  widths     edges, smoothed -> the block counts (binding 3, from word u_blocks_at,
//                      four a block: edge pixels, the sum of k of horizontal and vertical edges,
//                      the sum of diagonalWidth(k) * 2^24 as 64 bits, low word first): the double
//                      threshold (as a pass that reads the edges it does not write, which the
//                      reference's in-place pass equals) and each edge pixel's width in steps
//                      k = k1 + k2 along its direction, up to u_radius each way
//   WG_X, WG_Y  the workgroup's invocations, one a sample
#ifndef PASS
#define PASS 0
#endif
#ifndef PACKED_SOURCE
#define PACKED_SOURCE 0
#endif
#ifndef WG_X
#define WG_X 16
#endif
#ifndef WG_Y
#define WG_Y 16
#endif

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

#include "common/rgba8.glsl"

uniform ivec2 u_size;  // the plane's samples

// ffmpeg's edge_common.h directions.
const uint k45Up = 0u, k45Down = 1u, kHorizontal = 2u, kVertical = 3u;

#if PASS != 2
layout(std430, binding = 0) buffer Smoothed { uint smoothed[]; };
#endif
#if PASS == 1 || PASS == 2
layout(std430, binding = 1) buffer Gradients { uint gradients[]; };
#endif
#if PASS >= 2
layout(std430, binding = 2) buffer Edges { uint edges[]; };
#endif

#if PASS == 0
uniform int u_step_x, u_offset_x, u_channel;
#if PACKED_SOURCE
// A frame's RGBA8 pixels, a word each, rows packed (the plane's own width).
layout(std430, binding = 1) readonly buffer Source { uint source[]; };

uint sourceAt(int x, int y) {
  return (source[y * u_size.x + x * u_step_x + u_offset_x] >> (8 * u_channel)) & 255u;
}
#else
uniform highp sampler2D u_plane;

uint sourceAt(int x, int y) {
  uvec4 t = texelBytes(texelFetch(u_plane, ivec2(x * u_step_x + u_offset_x, y), 0));
  return t[u_channel];
}
#endif

// The workgroup's samples and the two rows and columns around them, each read once (clamped
// into the plane: a clamped one is only ever read where the Gaussian copies its own sample).
const int kTileW = WG_X + 4, kTileH = WG_Y + 4;
shared uint tile[kTileW * kTileH];

ivec2 tileOrigin() {
  return ivec2(gl_WorkGroupID.xy) * ivec2(WG_X, WG_Y) - 2;
}

void loadTile() {
  ivec2 origin = tileOrigin();
  for (int t = int(gl_LocalInvocationIndex); t < kTileW * kTileH; t += WG_X * WG_Y) {
    int x = clamp(origin.x + t % kTileW, 0, u_size.x - 1);
    int y = clamp(origin.y + t / kTileW, 0, u_size.y - 1);
    tile[t] = sourceAt(x, y);
  }
  memoryBarrierShared();
  barrier();
}

// Sample (x, y) of the plane, within two of one of the workgroup's.
int sampleAt(int x, int y) {
  ivec2 at = ivec2(x, y) - tileOrigin();
  return int(tile[at.y * kTileW + at.x]);
}

int gaussian(int x, int y) {
  int s = 0;
  s += (sampleAt(x - 2, y - 2) + sampleAt(x - 2, y + 2)) * 2;
  s += (sampleAt(x - 1, y - 2) + sampleAt(x - 1, y + 2)) * 4;
  s += (sampleAt(x, y - 2) + sampleAt(x, y + 2)) * 5;
  s += (sampleAt(x + 1, y - 2) + sampleAt(x + 1, y + 2)) * 4;
  s += (sampleAt(x + 2, y - 2) + sampleAt(x + 2, y + 2)) * 2;
  s += (sampleAt(x - 2, y - 1) + sampleAt(x - 2, y + 1)) * 4;
  s += (sampleAt(x - 1, y - 1) + sampleAt(x - 1, y + 1)) * 9;
  s += (sampleAt(x, y - 1) + sampleAt(x, y + 1)) * 12;
  s += (sampleAt(x + 1, y - 1) + sampleAt(x + 1, y + 1)) * 9;
  s += (sampleAt(x + 2, y - 1) + sampleAt(x + 2, y + 1)) * 4;
  s += sampleAt(x - 2, y) * 5 + sampleAt(x - 1, y) * 12 + sampleAt(x, y) * 15;
  s += sampleAt(x + 1, y) * 12 + sampleAt(x + 2, y) * 5;
  return s / 159;
}
#endif

#if PASS == 1
int smoothedAt(int x, int y) {
  return int(smoothed[y * u_size.x + x]);
}

// Gy / Gx against tan(pi/8) and tan(3pi/8) in 16-bit fixed point, as the reference.
uint roundedDirection(int gx, int gy) {
  if (gx != 0) {
    if (gx < 0) {
      gx = -gx;
      gy = -gy;
    }
    gy *= 65536;
    int tan_pi8 = 27146 * gx, tan_3pi8 = 158218 * gx;
    if (gy > -tan_3pi8 && gy < -tan_pi8) return k45Up;
    if (gy > -tan_pi8 && gy < tan_pi8) return kHorizontal;
    if (gy > tan_pi8 && gy < tan_3pi8) return k45Down;
  }
  return kVertical;
}
#endif

#if PASS == 3
layout(std430, binding = 3) buffer Blocks { uint blocks[]; };
uniform uint u_low, u_high;  // 8-bit thresholds
uniform int u_radius;
uniform ivec2 u_block;      // a block's samples
uniform ivec2 u_grid;       // the plane's blocks: columns, rows
uniform uint u_blocks_at;   // the plane's first word in `blocks`
uniform uint u_diagonal[201];  // diagonalWidth(k) * 2^24 for k in 0..200

uint edgeAt(int x, int y) {
  return edges[y * u_size.x + x] & 255u;
}

int smoothedAt(int x, int y) {
  return int(smoothed[y * u_size.x + x]);
}

// The width's steps k1 + k2, or -1 where the walk leaves the plane.
int edgeSteps(int i, int j, uint direction) {
  int dx = 1, dy = 1;
  if (direction == kHorizontal) dy = 0;
  if (direction == kVertical) dx = 0;
  if (direction == k45Up) dy = -1;
  int sign = smoothedAt(i, j) > smoothedAt(i - dx, j - dy) ? 1 : -1;
  int k1 = 0;
  for (; k1 < u_radius; ++k1) {
    int x = i - k1 * dx, y = j - k1 * dy;
    int x2 = x - dx, y2 = y - dy;
    if (x2 < 0 || x2 >= u_size.x || y2 < 0 || y2 >= u_size.y) return -1;
    if ((smoothedAt(x, y) - smoothedAt(x2, y2)) * sign <= 0) break;
  }
  int k2 = 0;
  for (; k2 < u_radius; ++k2) {
    int x = i + k2 * dx, y = j + k2 * dy;
    int x2 = x + dx, y2 = y + dy;
    if (x2 < 0 || x2 >= u_size.x || y2 < 0 || y2 >= u_size.y) return -1;
    if ((smoothedAt(x, y) - smoothedAt(x2, y2)) * sign >= 0) break;
  }
  return k1 + k2;
}
#endif

void main() {
#if PASS == 0
  loadTile();  // by every invocation, before any returns
#endif
  int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
  int w = u_size.x, h = u_size.y;
  if (x >= w || y >= h) return;
  int i = y * w + x;
#if PASS == 0
  bool copied = x < 2 || x >= w - 2 || y < 2 || y >= h - 2;
  smoothed[i] = uint(copied ? sampleAt(x, y) : gaussian(x, y));
#elif PASS == 1
  if (x < 1 || x >= w - 1 || y < 1 || y >= h - 1) return;
  int gx = -smoothedAt(x - 1, y - 1) + smoothedAt(x + 1, y - 1) - 2 * smoothedAt(x - 1, y) +
           2 * smoothedAt(x + 1, y) - smoothedAt(x - 1, y + 1) + smoothedAt(x + 1, y + 1);
  int gy = -smoothedAt(x - 1, y - 1) + smoothedAt(x - 1, y + 1) - 2 * smoothedAt(x, y - 1) +
           2 * smoothedAt(x, y + 1) - smoothedAt(x + 1, y - 1) + smoothedAt(x + 1, y + 1);
  gradients[i] = uint(abs(gx) + abs(gy)) | (roundedDirection(gx, gy) << 16);
#elif PASS == 2
  uint edge = 0u;
  if (x >= 1 && x < w - 1 && y >= 1 && y < h - 1) {
    uint word = gradients[i];
    uint direction = word >> 16;
    int a = -w, b = w;
    if (direction == k45Up) {
      a = w - 1;
      b = -w + 1;
    } else if (direction == k45Down) {
      a = -w - 1;
      b = w + 1;
    } else if (direction == kHorizontal) {
      a = -1;
      b = 1;
    }
    uint g = word & 0xFFFFu;
    if (g > (gradients[i + a] & 0xFFFFu) && g > (gradients[i + b] & 0xFFFFu))
      edge = min(g, 255u) | (direction << 8);
  }
  edges[i] = edge;
#else
  int bx = x / u_block.x, by = y / u_block.y;
  if (bx >= u_grid.x || by >= u_grid.y) return;
  uint word = edges[i];
  uint p = word & 255u;
  if (p == 0u) return;
  if (p <= u_high) {
    bool inner = x != 0 && x != w - 1 && y != 0 && y != h - 1;
    if (!inner || p <= u_low) return;
    if (!(edgeAt(x - 1, y - 1) > u_high || edgeAt(x, y - 1) > u_high ||
          edgeAt(x + 1, y - 1) > u_high || edgeAt(x - 1, y) > u_high ||
          edgeAt(x + 1, y) > u_high || edgeAt(x - 1, y + 1) > u_high ||
          edgeAt(x, y + 1) > u_high || edgeAt(x + 1, y + 1) > u_high))
      return;
  }
  uint direction = (word >> 8) & 3u;
  int k = edgeSteps(x, y, direction);
  if (k < 1) return;  // the reference drops widths of 0 (and those of walks that left the plane)
  uint at = u_blocks_at + uint(by * u_grid.x + bx) * 4u;
  atomicAdd(blocks[at], 1u);
  if (direction == kHorizontal || direction == kVertical) {
    atomicAdd(blocks[at + 1u], uint(k));
  } else {
    uint v = u_diagonal[k];
    uint old = atomicAdd(blocks[at + 2u], v);
    if (old + v < old) atomicAdd(blocks[at + 3u], 1u);
  }
#endif
}
