#pragma once
// Bayer raw frames as the format table (base/pixel_format.hpp) describes them: the colour filter
// array's order, and how a row stores its sensor values in each of V4L2's Bayer layouts, given by
// the table's columns (bit depth, and plane 0's sample: bytes and pixels per sample):
//   8 bit          1 byte per pixel                          (SRGGB8)
//   10/12/16 bit   a little-endian 16-bit word per pixel     (SRGGB10, SRGGB12, SRGGB16)
//   MIPI CSI-2 10P 4 pixels in 5 bytes: the 8 high bits of each, then a byte of their 2 low bits,
//                  pixel 0 in bits 0-1                       (SRGGB10P)
//   MIPI CSI-2 12P 2 pixels in 3 bytes: the 8 high bits of each, then a byte of their 4 low bits,
//                  pixel 0 in bits 0-3                       (SRGGB12P)
#include <cstddef>
#include <cstdint>

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

}  // namespace esf
