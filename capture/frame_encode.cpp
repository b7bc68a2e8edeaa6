#include "capture/frame_encode.hpp"

#include <cmath>

#include "capture/pixel_format.hpp"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image_write.h>
#pragma GCC diagnostic pop

namespace esf {
namespace {

struct ForwardMatrix {
  int y[3], cb[3], cr[3];  // 16.16 weights for R, G, B
  int y_offset;
};

ForwardMatrix forwardMatrix(const Colorimetry& c) {
  const double kr = c.encoding == YcbcrEncoding::kBt709 ? 0.2126 : 0.299;
  const double kb = c.encoding == YcbcrEncoding::kBt709 ? 0.0722 : 0.114;
  const double kg = 1.0 - kr - kb;
  const double ys = c.full_range ? 1.0 : 219.0 / 255.0;
  const double cs = c.full_range ? 1.0 : 224.0 / 255.0;
  auto q = [](double v) { return int(std::lround(v * 65536.0)); };
  ForwardMatrix m{};
  m.y[0] = q(kr * ys), m.y[1] = q(kg * ys), m.y[2] = q(kb * ys);
  const double cbd = 2.0 * (1.0 - kb), crd = 2.0 * (1.0 - kr);
  m.cb[0] = q(-kr / cbd * cs), m.cb[1] = q(-kg / cbd * cs), m.cb[2] = q((1.0 - kb) / cbd * cs);
  m.cr[0] = q((1.0 - kr) / crd * cs), m.cr[1] = q(-kg / crd * cs), m.cr[2] = q(-kb / crd * cs);
  m.y_offset = c.full_range ? 0 : 16;
  return m;
}

uint8_t clamp8(int v) {
  return uint8_t(v < 0 ? 0 : v > 255 ? 255 : v);
}

int dot(const int* w, const uint8_t* p) {
  return w[0] * p[0] + w[1] * p[1] + w[2] * p[2];
}

struct YuvImage {
  std::vector<uint8_t> y, cb, cr;  // full resolution
};

YuvImage toYuv(const RgbaImage& img, const ForwardMatrix& m) {
  YuvImage out;
  const size_t n = img.pixelCount();
  out.y.resize(n), out.cb.resize(n), out.cr.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t* p = &img.pixels[i * 4];
    out.y[i] = clamp8((dot(m.y, p) + 32768 + (m.y_offset << 16)) >> 16);
    out.cb[i] = clamp8((dot(m.cb, p) + 32768 + (128 << 16)) >> 16);
    out.cr[i] = clamp8((dot(m.cr, p) + 32768 + (128 << 16)) >> 16);
  }
  return out;
}

// The rounded mean of a sx x sy block of a full-resolution plane, clipped at the edges.
uint8_t blockMean(const std::vector<uint8_t>& plane, int w, int h, int bx, int by, int sx, int sy) {
  int sum = 0, n = 0;
  for (int y = by * sy; y < std::min(h, (by + 1) * sy); ++y)
    for (int x = bx * sx; x < std::min(w, (bx + 1) * sx); ++x) sum += plane[size_t(y) * w + x], ++n;
  return uint8_t((sum + n / 2) / n);
}

void writeJpegBytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<uint8_t>*>(context);
  out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
}

}  // namespace

Result<std::vector<uint8_t>> encodeRgba(const RgbaImage& img, PixelFormat format,
                                        const Colorimetry& colorimetry) {
  const int w = img.width, h = img.height;
  std::vector<uint8_t> out;
  if (format == PixelFormat::kMJPEG) {
    if (!stbi_write_jpg_to_func(writeJpegBytes, &out, w, h, 4, img.pixels.data(), 90))
      return fail("JPEG encoding failed");
    return out;
  }
  auto size = frameSize(format, w, h);
  if (!size) return size.error();
  out.resize(*size);
  uint8_t* o = out.data();
  auto rgbBytes = [&](const int(&order)[4], int bpp) {
    for (size_t i = 0; i < img.pixelCount(); ++i)
      for (int c = 0; c < bpp; ++c)
        o[i * bpp + c] = order[c] < 0 ? 255 : img.pixels[i * 4 + order[c]];
  };
  switch (format) {
    case PixelFormat::kRGBA32:
      rgbBytes({0, 1, 2, 3}, 4);
      return out;
    case PixelFormat::kRGB24:
      rgbBytes({0, 1, 2, 0}, 3);
      return out;
    case PixelFormat::kBGR24:
      rgbBytes({2, 1, 0, 0}, 3);
      return out;
    case PixelFormat::kXRGB32:
      rgbBytes({-1, 0, 1, 2}, 4);
      return out;  // X R G B
    case PixelFormat::kARGB32:
      rgbBytes({3, 0, 1, 2}, 4);
      return out;  // A R G B
    case PixelFormat::kXBGR32:
      rgbBytes({2, 1, 0, -1}, 4);
      return out;  // B G R X
    case PixelFormat::kABGR32:
      rgbBytes({2, 1, 0, 3}, 4);
      return out;  // B G R A
    default:
      break;
  }
  const ForwardMatrix m = forwardMatrix(colorimetry);
  const YuvImage yuv = toYuv(img, m);
  if (format == PixelFormat::kGREY) {
    // GREY is plain luminance bytes, full range.
    const ForwardMatrix full = forwardMatrix({colorimetry.encoding, true});
    for (size_t i = 0; i < img.pixelCount(); ++i)
      o[i] = clamp8((dot(full.y, &img.pixels[i * 4]) + 32768) >> 16);
    return out;
  }
  const int cw = (w + 1) / 2, ch = (h + 1) / 2;
  switch (format) {
    case PixelFormat::kYUYV:
    case PixelFormat::kUYVY: {
      const bool yuyv = format == PixelFormat::kYUYV;
      for (int y = 0; y < h; ++y)
        for (int bx = 0; bx < w / 2; ++bx) {
          uint8_t* q = o + size_t(y) * w * 2 + bx * 4;
          const uint8_t u = blockMean(yuv.cb, w, h, bx, y, 2, 1);
          const uint8_t v = blockMean(yuv.cr, w, h, bx, y, 2, 1);
          const uint8_t y0 = yuv.y[size_t(y) * w + bx * 2], y1 = yuv.y[size_t(y) * w + bx * 2 + 1];
          if (yuyv)
            q[0] = y0, q[1] = u, q[2] = y1, q[3] = v;
          else
            q[0] = u, q[1] = y0, q[2] = v, q[3] = y1;
        }
      return out;
    }
    case PixelFormat::kNV12:
    case PixelFormat::kNV21: {
      std::copy(yuv.y.begin(), yuv.y.end(), o);
      uint8_t* uv = o + size_t(w) * h;
      const bool swap = format == PixelFormat::kNV21;
      for (int by = 0; by < ch; ++by)
        for (int bx = 0; bx < cw; ++bx) {
          uint8_t* q = uv + (size_t(by) * cw + bx) * 2;
          q[swap ? 1 : 0] = blockMean(yuv.cb, w, h, bx, by, 2, 2);
          q[swap ? 0 : 1] = blockMean(yuv.cr, w, h, bx, by, 2, 2);
        }
      return out;
    }
    case PixelFormat::kYU12:
    case PixelFormat::kYUV422P:
    case PixelFormat::kYUV444P: {
      const int sx = format == PixelFormat::kYUV444P ? 1 : 2;
      const int sy = format == PixelFormat::kYU12 ? 2 : 1;
      const int pw = (w + sx - 1) / sx, ph = (h + sy - 1) / sy;
      std::copy(yuv.y.begin(), yuv.y.end(), o);
      uint8_t* u = o + size_t(w) * h;
      uint8_t* v = u + size_t(pw) * ph;
      for (int by = 0; by < ph; ++by)
        for (int bx = 0; bx < pw; ++bx) {
          u[size_t(by) * pw + bx] = blockMean(yuv.cb, w, h, bx, by, sx, sy);
          v[size_t(by) * pw + bx] = blockMean(yuv.cr, w, h, bx, by, sx, sy);
        }
      return out;
    }
    default:
      return fail("cannot encode ", formatName(format));
  }
}

}  // namespace esf
