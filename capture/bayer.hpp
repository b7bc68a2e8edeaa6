#pragma once
// Bayer raw frames: the colour filter array's order, and the sensor values of a row in any of
// V4L2's Bayer layouts, given by the format table's columns (bit depth, and plane 0's sample:
// bytes and pixels per sample):
//   8 bit          1 byte per pixel                          (SRGGB8)
//   10/12/16 bit   a little-endian 16-bit word per pixel     (SRGGB10, SRGGB12, SRGGB16)
//   MIPI CSI-2 10P 4 pixels in 5 bytes: the 8 high bits of each, then a byte of their 2 low bits,
//                  pixel 0 in bits 0-1                       (SRGGB10P)
//   MIPI CSI-2 12P 2 pixels in 3 bytes: the 8 high bits of each, then a byte of their 4 low bits,
//                  pixel 0 in bits 0-3                       (SRGGB12P)
#include <cstdint>
#include <functional>
#include <vector>

#include "esframe/base/result.hpp"

namespace esf {

// Which colours the top-left 2x2 block holds, in reading order (V4L2's SRGGB8 is kRGGB).
enum class CfaOrder { kRGGB, kGRBG, kGBRG, kBGGR };

// The colour of site (x, y): 0 R, 1 G, 2 B.
int cfaColour(CfaOrder order, int x, int y);

// The four sites of a 2x2 block as raw statistics name them: R, G on R's row (Gr), G on B's row
// (Gb), B.
enum class CfaSite { kR, kGr, kGb, kB };
CfaSite cfaSite(CfaOrder order, int x, int y);

// How a row of `width` values is stored.
struct BayerRowLayout {
  int bit_depth = 8;          // 8, 10, 12 or 16
  int bytes_per_sample = 1;   // 1, 2, 5 (10P) or 3 (12P)
  int pixels_per_sample = 1;  // 1, 1, 4 (10P) or 2 (12P)
  Status validate(int width) const;
  size_t rowBytes(int width) const;  // the minimal stride
};

// Reads one row's `width` values into `out` (a layout that validate accepts). Unpacked words are
// masked to bit_depth (V4L2 zero fills the unused high bits).
void unpackBayerRow(const uint8_t* row, int width, const BayerRowLayout& layout, uint16_t* out);

// The inverse: `width` values (each below 2^bit_depth) into one row of the layout. Unused high
// bits of 16-bit words are zero, as V4L2 has them.
void packBayerRow(const uint16_t* values, int width, const BayerRowLayout& layout, uint8_t* row);

// Calls rows(begin, end) for ranges covering [0, count) once, perhaps concurrently (a thread
// pool's bands); empty: one call over them all.
using RowSplitter =
    std::function<void(int count, const std::function<void(int begin, int end)>& rows)>;

// A whole frame: `height` rows `stride` bytes apart -> width * height values, the rows unpacked
// in the parts `split` makes.
Result<std::vector<uint16_t>> unpackBayer(const uint8_t* data, size_t size, int stride, int width,
                                          int height, const BayerRowLayout& layout,
                                          const RowSplitter& split = {});

}  // namespace esf
