// A Bayer frame's raw site histograms (core/stages/raw_histograms.hpp) from its sensor values in
// the R16UI texture the demosaic reads (u_raw), equal to core/stats/raw_histogram.hpp's
// rawSiteHistograms: per CFA site (R, Gr, Gb, B) s = min(max(v - black, 0), white - black),
// bin = s * BINS / (white - black + 1); crushed v <= black, clipped v >= white.
// Shape: a workgroup covers WG_Y whole rows, WG_X invocations along each; an invocation takes the
// row's pixel pairs (x even, x + 1) at a stride of WG_X pairs, so its two pixels' sites are the
// row's even and odd sites. Counts go into the workgroup's shared histograms, then each non-zero
// word into the output with one global atomic (binding 0: [site * BINS + bin], then crushed[4],
// clipped[4]; the host zeroes it before the dispatch). A word counts pixels of one frame, which
// the host keeps below 2^32 (RawHistograms::run).
//   BINS        1..256
//   WG_X, WG_Y  the workgroup's invocations along a row, and its rows
#ifndef BINS
#define BINS 256
#endif
#ifndef WG_X
#define WG_X 16
#endif
#ifndef WG_Y
#define WG_Y 16
#endif

layout(local_size_x = WG_X, local_size_y = WG_Y) in;

uniform highp usampler2D u_raw;  // R16UI: one sensor value per texel
uniform ivec2 u_size;            // pixels
uniform uvec2 u_levels;          // black, white (white > black)
// The site of (even x, even y), (odd x, even y), (even x, odd y), (odd x, odd y).
uniform ivec4 u_sites;

layout(std430, binding = 0) buffer Counts { uint counts[]; };

const int kWords = 4 * BINS + 8;  // the histograms, crushed[4], clipped[4]
const int kInvocations = WG_X * WG_Y;
shared uint group_counts[kWords];

void main() {
  for (int i = int(gl_LocalInvocationIndex); i < kWords; i += kInvocations) group_counts[i] = 0u;
  memoryBarrierShared();
  barrier();
  int y = int(gl_WorkGroupID.x) * WG_Y + int(gl_LocalInvocationID.y);
  if (y < u_size.y) {
    uint black = u_levels.x, white = u_levels.y;
    uint span = white - black + 1u;
    int row = (y & 1) * 2;
    int even_site = u_sites[row], odd_site = u_sites[row + 1];
    uint crushed_even = 0u, crushed_odd = 0u, clipped_even = 0u, clipped_odd = 0u;
    for (int x = 2 * int(gl_LocalInvocationID.x); x < u_size.x; x += 2 * WG_X) {
      uint a = texelFetch(u_raw, ivec2(x, y), 0).r;
      atomicAdd(group_counts[even_site * BINS + int((min(a, white) - min(a, black)) * uint(BINS) /
                                                    span)],
                1u);
      crushed_even += a <= black ? 1u : 0u;
      clipped_even += a >= white ? 1u : 0u;
      if (x + 1 < u_size.x) {
        uint b = texelFetch(u_raw, ivec2(x + 1, y), 0).r;
        atomicAdd(group_counts[odd_site * BINS + int((min(b, white) - min(b, black)) * uint(BINS) /
                                                     span)],
                  1u);
        crushed_odd += b <= black ? 1u : 0u;
        clipped_odd += b >= white ? 1u : 0u;
      }
    }
    if (crushed_even != 0u) atomicAdd(group_counts[4 * BINS + even_site], crushed_even);
    if (crushed_odd != 0u) atomicAdd(group_counts[4 * BINS + odd_site], crushed_odd);
    if (clipped_even != 0u) atomicAdd(group_counts[4 * BINS + 4 + even_site], clipped_even);
    if (clipped_odd != 0u) atomicAdd(group_counts[4 * BINS + 4 + odd_site], clipped_odd);
  }
  memoryBarrierShared();
  barrier();
  for (int i = int(gl_LocalInvocationIndex); i < kWords; i += kInvocations) {
    uint c = group_counts[i];
    if (c != 0u) atomicAdd(counts[i], c);
  }
}
