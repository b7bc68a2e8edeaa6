#pragma once
// Preview-grade demosaic of a Bayer frame to RGBA8, the plain CPU reference that
// glsl_es/demosaic.comp matches bit for bit. Integer maths throughout:
//   1. Bilinear interpolation at the sensor's bit depth. At an R (B) site: G = the rounded mean
//      of the 4 edge neighbours, B (R) = that of the 4 diagonal ones. At a G site: the colour of
//      its row's other sites = the rounded mean of the left and right neighbours, the other
//      colour = that of the upper and lower ones. Means round half up: (a+b+1)>>1,
//      (a+b+c+d+2)>>2. Borders mirror without repeating the edge (x = -1 reads x = 1), which
//      keeps the CFA phase, so frames must be at least 2x2.
//   2. Black level, white balance, 8 bits: s = max(v - black, 0); R and B times their gain in
//      1/256 (s = (s * gain + 128) >> 8; G has none); out = min((s * 255 + range/2) / range, 255)
//      with range = white - black. No colour matrix, no gamma: a preview, not a development.
#include <cstdint>
#include <vector>

#include "base/bayer_layout.hpp"
#include "esframe/base/result.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

struct DemosaicParams {
  CfaOrder order = CfaOrder::kRGGB;
  int bit_depth = 8;      // 8..16: the values' range
  uint32_t black = 0;     // subtracted first
  uint32_t white = 255;   // maps to 255; > black, < 2^bit_depth
  uint32_t gain_r = 256;  // 1/256 units: 256 = 1.0; 1..4096
  uint32_t gain_b = 256;
  Status validate(int width, int height) const;
};

// Step 2 for one interpolated value v and its channel's gain (256 for green): its byte.
uint8_t demosaicLevel(uint32_t v, uint32_t gain, const DemosaicParams& params);

// `raw`: width * height values, row by row, each < 2^bit_depth.
Result<RgbaImage> demosaicReference(const std::vector<uint16_t>& raw, int width, int height,
                                    const DemosaicParams& params);

}  // namespace esf
