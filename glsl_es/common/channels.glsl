// The channel slots of a per-channel stage (histogram.comp, reduce.comp):
//   CHANNELS 1..4 slots; slot k reads channel CHANNELk (the host defines all four, the unused
//   ones 0): 0 r, 1 g, 2 b, 3 integer luma.
//   LUMA_601  0: BT.709, 1: BT.601 (common/rgba8.glsl).
#include "common/rgba8.glsl"
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

const int CODES[4] = int[4](CHANNEL0, CHANNEL1, CHANNEL2, CHANNEL3);

uint channelValue(uvec4 c, int code) {
  if (code == 0) return c.r;
  if (code == 1) return c.g;
  if (code == 2) return c.b;
#if LUMA_601
  return luma601(c.rgb);
#else
  return luma709(c.rgb);
#endif
}
