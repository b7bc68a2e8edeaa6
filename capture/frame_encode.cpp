#include "capture/frame_encode.hpp"

#include <cmath>

#include "base/pixel_format.hpp"
#include "base/ycbcr_weights.hpp"

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
  const auto [kr, kg, kb, luma_span, chroma_span] = ycbcrWeights(c);
  const double ys = luma_span / 255.0, cs = chroma_span / 255.0;
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

void packBayerRow(const uint16_t* values, int width, const BayerRowLayout& l, uint8_t* row) {
  if (l.bytes_per_sample == 1) {
    for (int x = 0; x < width; ++x) row[x] = uint8_t(values[x]);
  } else if (l.bytes_per_sample == 2) {
    for (int x = 0; x < width; ++x)
      row[2 * x] = uint8_t(values[x] & 0xff), row[2 * x + 1] = uint8_t(values[x] >> 8);
  } else {
    const int low_bits = l.bit_depth - 8;
    for (int g = 0; g < width / l.pixels_per_sample; ++g) {
      uint8_t* s = row + size_t(g) * size_t(l.bytes_per_sample);
      uint8_t lows = 0;
      for (int i = 0; i < l.pixels_per_sample; ++i) {
        const uint16_t v = values[g * l.pixels_per_sample + i];
        s[i] = uint8_t(v >> low_bits);
        lows = uint8_t(lows | (v & ((1 << low_bits) - 1)) << (i * low_bits));
      }
      s[l.pixels_per_sample] = lows;
    }
  }
}

Status encodeRgbaInto(const RgbaImage& img, PixelFormat format, const Colorimetry& colorimetry,
                      std::vector<uint8_t>& out) {
  const int w = img.width, h = img.height;
  const PixelFormatInfo& info = pixelFormatInfo(format);
  if (info.packing == Packing::kCompressed) {
    out.clear();
    if (!stbi_write_jpg_to_func(writeJpegBytes, &out, w, h, 4, img.pixels.data(), 90))
      return fail(ErrorCode::kInternal, "JPEG encoding of a ", std::to_string(w), "x",
                  std::to_string(h), " image failed");
    return Status::success();
  }
  auto layout = planeLayout(format, w, h);
  if (!layout) return layout.error();
  std::vector<uint8_t*> planes;
  size_t total = 0;
  for (const auto& p : *layout) total += p.size();
  out.assign(total, 255);  // bytes no component claims (the X of XRGB32) stay 255
  for (size_t i = 0, offset = 0; i < layout->size(); offset += (*layout)[i].size(), ++i)
    planes.push_back(out.data() + offset);
  // Writes `value(x, y)` at every pixel's byte of `c`; pixels sharing a chroma sample write the
  // same block value, so the last write is as good as the first.
  auto put = [&](const ComponentLocation& c, auto value) {
    if (!c.present()) return;
    const ComponentOffsetTable at =
        componentOffsets(info, c, w, h, (*layout)[size_t(c.plane)].bytes_per_row);
    uint8_t* plane = planes[size_t(c.plane)];
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) plane[at.row[size_t(y)] + at.column[size_t(x)]] = value(x, y);
  };
  if (info.colour == ColourFamily::kRgb) {
    auto channel = [&](int index) {
      return [&img, index](int x, int y) { return img.at(x, y)[index]; };
    };
    put(info.r, channel(0)), put(info.g, channel(1)), put(info.b, channel(2));
    put(info.a, channel(3));
    return Status::success();
  }
  if (info.colour == ColourFamily::kBayer) {
    // Each site keeps its own colour's channel, scaled from 8 bits to the sensor's depth
    // (rounded): what an ideal sensor behind the CFA would read.
    const BayerRowLayout bayer = bayerRowLayout(info);
    const uint32_t top = (1u << info.bit_depth) - 1;
    std::vector<uint16_t> values(static_cast<size_t>(w));
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x)
        values[size_t(x)] = uint16_t((img.at(x, y)[cfaColour(info.cfa, x, y)] * top + 127) / 255);
      packBayerRow(values.data(), w, bayer, planes[0] + size_t(y) * (*layout)[0].bytes_per_row);
    }
    return Status::success();
  }
  if (info.colour == ColourFamily::kGrey) {
    // GREY is plain luminance bytes, full range.
    const ForwardMatrix full = forwardMatrix({colorimetry.encoding, true});
    put(info.y, [&](int x, int y) { return clamp8((dot(full.y, img.at(x, y)) + 32768) >> 16); });
    return Status::success();
  }
  const YuvImage yuv = toYuv(img, forwardMatrix(colorimetry));
  const int sx = info.chroma_horizontal_subsampling, sy = info.chroma_vertical_subsampling;
  put(info.y, [&](int x, int y) { return yuv.y[size_t(y) * w + x]; });
  const int cw = (w + sx - 1) / sx, ch = (h + sy - 1) / sy;
  std::vector<uint8_t> cb(size_t(cw) * ch), cr(size_t(cw) * ch);
  for (int by = 0; by < ch; ++by)
    for (int bx = 0; bx < cw; ++bx) {
      cb[size_t(by) * cw + bx] = blockMean(yuv.cb, w, h, bx, by, sx, sy);
      cr[size_t(by) * cw + bx] = blockMean(yuv.cr, w, h, bx, by, sx, sy);
    }
  put(info.cb, [&](int x, int y) { return cb[size_t(y / sy) * cw + x / sx]; });
  put(info.cr, [&](int x, int y) { return cr[size_t(y / sy) * cw + x / sx]; });
  return Status::success();
}

Result<std::vector<uint8_t>> encodeRgba(const RgbaImage& image, PixelFormat format,
                                        const Colorimetry& colorimetry) {
  std::vector<uint8_t> out;
  if (Status s = encodeRgbaInto(image, format, colorimetry, out); !s) return s.error();
  return out;
}

}  // namespace esf
