// signalstats' TOUT and VREP counts of a YUV frame's Y plane (core/stages/luma_signalstats.hpp),
// read from the plane texture the import read (u_luma: R8 for planar and semi-planar frames, the
// (Y, C) pairs of YUYV in R, of UYVY in G with u_y_in_green), equal to core/stats/signalstats.hpp's
// lumaOutliers and repeatedRows:
//   TOUT  the pixels (x in 1..W-2, y in 1..H-2) that, with their left and right neighbours, are
//         each an outlier against the pixels one row above and below and, where rows y-2 and y+2
//         exist, two rows above and below (filter_tout)
//   VREP  the rows y >= 4 whose sum |Y(x, y) - Y(x, y - 4)| is below W (filter_vrep)
// Shape: a workgroup covers WG_Y whole rows, WG_X invocations along each; an invocation takes a
// run of ceil(W / WG_X) consecutive pixels of its row, so a pixel's neighbours' outlier tests
// are the tests of the columns before and after it (each made once), and the row's sum is the
// workgroup's, added in shared memory. The workgroup adds its outlier pixels and repeated rows
// into the two output words (binding 0: [0] TOUT pixels, [1] VREP rows; the host zeroes them
// before the dispatch) with one global atomic each: a 4K frame's 8.3 M pixels fit 32 bits, and
// a row's sum W * 255 does for any texture width.
//   TOUT, VREP  0 or 1: which are counted
//   WG_X, WG_Y  the workgroup's invocations along a row, and its rows
#ifndef TOUT
#define TOUT 1
#endif
#ifndef VREP
#define VREP 1
#endif
#ifndef WG_X
#define WG_X 64
#endif
#ifndef WG_Y
#define WG_Y 4
#endif

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

uniform highp sampler2D u_luma;
uniform bool u_y_in_green;  // UYVY: Y is the pair's second byte
uniform ivec2 u_size;       // pixels

layout(std430, binding = 0) buffer Counts { uint counts[]; };

#include "common/rgba8.glsl"

shared uint group_outliers, group_rows;
#if VREP
shared uint row_sums[WG_Y];  // sum |Y(x, y) - Y(x, y - 4)| of each of the workgroup's rows
#endif

uint lumaAt(int x, int y) {
  uvec4 t = texelBytes(texelFetch(u_luma, ivec2(x, y), 0));
  return u_y_in_green ? t.g : t.r;
}

#if TOUT
// filter_tout's test of `pixel` between `above` and `below` (integer division, as ffmpeg's).
bool outlier(int above, int pixel, int below) {
  return (abs(above - pixel) + abs(below - pixel)) / 2 - abs(below - above) > 4;
}

// Column x of row y (1 <= y <= H-2) against the rows 1 away and, with two_rows, 2 away.
bool columnIsOutlier(int x, int y, bool two_rows) {
  int pixel = int(lumaAt(x, y));
  if (!outlier(int(lumaAt(x, y - 1)), pixel, int(lumaAt(x, y + 1)))) return false;
  return !two_rows || outlier(int(lumaAt(x, y - 2)), pixel, int(lumaAt(x, y + 2)));
}
#endif

void main() {
  if (gl_LocalInvocationIndex == 0u) group_outliers = group_rows = 0u;
#if VREP
  if (gl_LocalInvocationID.x == 0u) row_sums[gl_LocalInvocationID.y] = 0u;
#endif
  memoryBarrierShared();
  barrier();
  int y = int(gl_WorkGroupID.x) * WG_Y + int(gl_LocalInvocationID.y);
  int run = (u_size.x + WG_X - 1) / WG_X;
  int x0 = int(gl_LocalInvocationID.x) * run;
  int x1 = min(x0 + run, u_size.x);
#if TOUT
  uint outliers = 0u;
#endif
#if VREP
  uint difference = 0u;
#endif
  if (y < u_size.y) {
#if TOUT
    // The run's pixels that can be outliers: x in 1..W-2.
    int first = max(x0, 1), end = min(x1, u_size.x - 1);
    if (y >= 1 && y + 1 < u_size.y && first < end) {
      bool two_rows = y >= 2 && y + 2 < u_size.y;
      bool left = columnIsOutlier(first - 1, y, two_rows);
      bool middle = columnIsOutlier(first, y, two_rows);
      for (int x = first; x < end; ++x) {
        bool right = columnIsOutlier(x + 1, y, two_rows);
        if (left && middle && right) ++outliers;
        left = middle;
        middle = right;
      }
    }
#endif
#if VREP
    if (y >= 4)
      for (int x = x0; x < x1; ++x)
        difference += uint(abs(int(lumaAt(x, y)) - int(lumaAt(x, y - 4))));
#endif
  }
#if TOUT
  if (outliers != 0u) atomicAdd(group_outliers, outliers);
#endif
#if VREP
  if (difference != 0u) atomicAdd(row_sums[gl_LocalInvocationID.y], difference);
#endif
  memoryBarrierShared();
  barrier();
#if VREP
  if (gl_LocalInvocationID.x == 0u && y >= 4 && y < u_size.y &&
      row_sums[gl_LocalInvocationID.y] < uint(u_size.x))
    atomicAdd(group_rows, 1u);
  memoryBarrierShared();
  barrier();
#endif
  if (gl_LocalInvocationIndex == 0u) {
    if (group_outliers != 0u) atomicAdd(counts[0], group_outliers);
    if (group_rows != 0u) atomicAdd(counts[1], group_rows);
  }
}
