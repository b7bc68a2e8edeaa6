#include "core/import/import_reference.hpp"

#include <cmath>

#include "capture/pixel_format.hpp"
#include "core/import/mjpeg_decode.hpp"

namespace esf {
namespace {

int clamp8(int v) {
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

}  // namespace

bool rgbOrder(PixelFormat f, RgbOrder& o) {
  struct Entry {
    PixelFormat format;
    RgbOrder order;
  };
  static constexpr Entry kOrders[] = {
      {PixelFormat::kRGBA32, {4, 0, 1, 2, 3}}, {PixelFormat::kRGB24, {3, 0, 1, 2, -1}},
      {PixelFormat::kBGR24, {3, 2, 1, 0, -1}}, {PixelFormat::kXRGB32, {4, 1, 2, 3, -1}},  // X R G B
      {PixelFormat::kARGB32, {4, 1, 2, 3, 0}}, {PixelFormat::kXBGR32, {4, 2, 1, 0, -1}},  // B G R X
      {PixelFormat::kABGR32, {4, 2, 1, 0, 3}}, {PixelFormat::kGREY, {1, 0, 0, 0, -1}},
  };
  for (const auto& e : kOrders)
    if (e.format == f) return o = e.order, true;
  return false;
}

YuvCoefficients yuvCoefficients(const Colorimetry& c) {
  const double kr = c.encoding == YcbcrEncoding::kBt709 ? 0.2126 : 0.299;
  const double kb = c.encoding == YcbcrEncoding::kBt709 ? 0.0722 : 0.114;
  const double kg = 1.0 - kr - kb;
  const double ys = c.full_range ? 1.0 : 255.0 / 219.0;
  const double cs = c.full_range ? 1.0 : 255.0 / 224.0;
  auto q = [](double v) { return int(std::lround(v * 65536.0)); };
  return YuvCoefficients{c.full_range ? 0 : 16,
                         q(ys),
                         q(2.0 * (1.0 - kr) * cs),
                         q(2.0 * (1.0 - kb) * kb / kg * cs),
                         q(2.0 * (1.0 - kr) * kr / kg * cs),
                         q(2.0 * (1.0 - kb) * cs)};
}

void yuvToRgb(const YuvCoefficients& k, int y, int cb, int cr, uint8_t* rgb) {
  const int c = k.ys * (y - k.y_offset), d = cb - 128, e = cr - 128;
  rgb[0] = uint8_t(clamp8((c + k.rv * e + 32768) >> 16));
  rgb[1] = uint8_t(clamp8((c - k.gu * d - k.gv * e + 32768) >> 16));
  rgb[2] = uint8_t(clamp8((c + k.bu * d + 32768) >> 16));
}

Result<RgbaImage> convertToRgbaCpu(const Frame& f) {
  if (f.format == PixelFormat::kMJPEG) {
    auto decoded = decodeMjpeg(f);
    if (!decoded) return decoded.error();
    return convertToRgbaCpu(decoded->frame);
  }
  auto layout = planeLayout(f.format, f.width, f.height);
  if (!layout) return layout.error();
  if (f.plane_count != int(layout->size())) return fail("frame has the wrong number of planes");
  for (int i = 0; i < f.plane_count; ++i)
    if (!f.planes[i].data) return fail("frame plane ", std::to_string(i), " is not in CPU memory");
  RgbaImage out(f.width, f.height);
  auto byteAt = [&](int plane, int x, int y) {
    return int(f.planes[plane].data[size_t(y) * f.planes[plane].stride + x]);
  };
  RgbOrder o{};
  if (rgbOrder(f.format, o)) {
    for (int y = 0; y < f.height; ++y)
      for (int x = 0; x < f.width; ++x) {
        uint8_t* p = out.at(x, y);
        p[0] = uint8_t(byteAt(0, x * o.bpp + o.r, y));
        p[1] = uint8_t(byteAt(0, x * o.bpp + o.g, y));
        p[2] = uint8_t(byteAt(0, x * o.bpp + o.b, y));
        p[3] = uint8_t(o.a < 0 ? 255 : byteAt(0, x * o.bpp + o.a, y));
      }
    return out;
  }
  const YuvCoefficients k = yuvCoefficients(f.colorimetry);
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x) {
      int yy = 0, cb = 0, cr = 0;
      switch (f.format) {
        case PixelFormat::kYUYV:  // Y0 U Y1 V
          yy = byteAt(0, x * 2, y), cb = byteAt(0, (x & ~1) * 2 + 1, y),
          cr = byteAt(0, (x | 1) * 2 + 1, y);
          break;
        case PixelFormat::kUYVY:  // U Y0 V Y1
          yy = byteAt(0, x * 2 + 1, y), cb = byteAt(0, (x & ~1) * 2, y),
          cr = byteAt(0, (x | 1) * 2, y);
          break;
        case PixelFormat::kNV12:
        case PixelFormat::kNV21: {
          const bool swap = f.format == PixelFormat::kNV21;
          yy = byteAt(0, x, y);
          cb = byteAt(1, (x / 2) * 2 + (swap ? 1 : 0), y / 2);
          cr = byteAt(1, (x / 2) * 2 + (swap ? 0 : 1), y / 2);
          break;
        }
        case PixelFormat::kYU12:
          yy = byteAt(0, x, y), cb = byteAt(1, x / 2, y / 2), cr = byteAt(2, x / 2, y / 2);
          break;
        case PixelFormat::kYUV422P:
          yy = byteAt(0, x, y), cb = byteAt(1, x / 2, y), cr = byteAt(2, x / 2, y);
          break;
        case PixelFormat::kYUV444P:
          yy = byteAt(0, x, y), cb = byteAt(1, x, y), cr = byteAt(2, x, y);
          break;
        default:
          return fail("no CPU conversion for ", formatName(f.format));
      }
      uint8_t* p = out.at(x, y);
      yuvToRgb(k, yy, cb, cr, p);
      p[3] = 255;
    }
  return out;
}

Result<std::vector<uint8_t>> extractLumaPlane(const Frame& f) {
  if (!isYuv(f.format) && f.format != PixelFormat::kGREY)
    return fail(formatName(f.format), " frames have no luma plane");
  if (!f.planes[0].data) return fail("the luma plane is not in CPU memory");
  std::vector<uint8_t> y(size_t(f.width) * f.height);
  const bool packed = f.format == PixelFormat::kYUYV || f.format == PixelFormat::kUYVY;
  const int first = f.format == PixelFormat::kUYVY ? 1 : 0;
  for (int row = 0; row < f.height; ++row)
    for (int x = 0; x < f.width; ++x)
      y[size_t(row) * f.width + x] =
          f.planes[0].data[size_t(row) * f.planes[0].stride + (packed ? x * 2 + first : x)];
  return y;
}

}  // namespace esf
