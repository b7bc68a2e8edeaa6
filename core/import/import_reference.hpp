#pragma once
// The CPU reference for import: every PixelFormat -> RGBA8, with the same integer formulas as
// glsl_es/import_yuv.comp and import_rgb.comp, written as plain loops.
//
// Y'CbCr -> R'G'B' (ITU-R BT.601 / BT.709 matrices), 16.16 fixed point:
//   c = Y - yoff (yoff = 16 limited, 0 full), d = Cb - 128, e = Cr - 128
//   R = clamp((ys*c + rv*e + 32768) >> 16)
//   G = clamp((ys*c - gu*d - gv*e + 32768) >> 16)
//   B = clamp((ys*c + bu*d + 32768) >> 16)
// with ys = 65536 * (255/219 limited | 1 full) and the chroma coefficients from Kr, Kb, scaled
// by 255/224 in limited range (yuvCoefficients). `>>` is an arithmetic shift (floor).
// Chroma is not interpolated: each pixel takes the chroma sample of its 2x1 / 2x2 block
// (nearest, as V4L2 cosites it), so odd widths and heights use the last, partial block.
#include <cstdint>

#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

struct YuvCoefficients {
  int y_offset;  // 16 or 0
  int ys;        // luma scale, 16.16
  int rv, gu, gv, bu;
};
YuvCoefficients yuvCoefficients(const Colorimetry& c);

// The documented integer conversion of one sample triple.
void yuvToRgb(const YuvCoefficients& k, int y, int cb, int cr, uint8_t* rgb);

// Byte layout of the packed RGB formats and GREY: bytes per pixel and the byte index of R, G,
// B and A within a pixel (A < 0: opaque). False for other formats.
struct RgbOrder {
  int bpp;
  int r, g, b, a;
};
bool rgbOrder(PixelFormat format, RgbOrder& order);

// An uncompressed frame has the planes its format needs, all in CPU memory.
Status checkCpuFrame(const Frame& frame);

// Converts any frame whose planes are in CPU memory. MJPEG is decoded first (mjpeg_decode.hpp).
Result<RgbaImage> convertToRgbaCpu(const Frame& frame);

// The Y plane (YUV and GREY frames) as WxH bytes, strides removed. Fails for RGB formats.
Result<std::vector<uint8_t>> extractLumaPlane(const Frame& frame);

}  // namespace esf
