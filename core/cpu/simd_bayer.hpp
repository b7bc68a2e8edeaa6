#pragma once
// The CPU executor's Bayer loops in vector lanes (Google Highway, chosen at run time): the
// demosaic's interior pixels of a row, where every neighbour is inside the frame (the row's ends,
// mirrored, stay with the plain loop in cpu_bayer.cpp), and the raw statistics' bins. Equal to
// demosaicReference's and rawSiteHistograms' integer formulas.
#include <cstdint>

namespace esf::simd {

// The levels of one frame: a value v becomes s = max(v - black, 0), times the channel's gain
// (s = (s * gain + 128) >> 8; green has none), then min((255 min(s, range) + range / 2) / range,
// 255). Each gain in [1, 4096], v < 2^16 and range in [1, 2^16), so every step fits i32.
struct BayerLevels {
  uint32_t black = 0, range = 1, gain_r = 256, gain_b = 256;
};

// Demosaics pixels x0, x0 + 1, ... of `row` (colour even_colour at even x, odd_colour at odd x:
// 0 red, 1 green, 2 blue) into rgba + 4 x, a whole vector at a time, up to x1 where [x0, x1)
// holds a vector (the last one overlapping the one before); returns x1, or x0 where it does not. 1
// <= x0 and x1 <= width - 1, so it reads row[x0 - 1..x1] and the same of `up` and `down`, nothing
// else.
int demosaicInterior(const uint16_t* up, const uint16_t* row, const uint16_t* down, int x0, int x1,
                     int even_colour, int odd_colour, const BayerLevels& levels, uint8_t* rgba);

// The raw statistics' binning of one frame (core/stats/raw_histogram.hpp): a value v is at
// s = min(v, white) - min(v, black), in bin s * bins / span with span = white - black + 1.
// white < 2^16, bins in [1, 256].
struct RawBinning {
  uint32_t black = 0, white = 255, span = 256, bins = 256;
};

// bins_out[x] = the bin of row[x] for x in [0, n); crushed[x % 2] += row[x] <= black and
// clipped[x % 2] += row[x] >= white.
void rawBinsOfRow(const uint16_t* row, int n, const RawBinning& binning, uint8_t* bins_out,
                  uint64_t crushed[2], uint64_t clipped[2]);

}  // namespace esf::simd
