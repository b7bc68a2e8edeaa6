#include "core/import/import_reference.hpp"

#include <cmath>

#include "base/pixel_format.hpp"
#include "base/ycbcr_weights.hpp"
#include "core/import/mjpeg_decode.hpp"

namespace esf {
namespace {

int clamp8(int v) {
  return v < 0 ? 0 : v > 255 ? 255 : v;
}

}  // namespace

bool rgbOrder(PixelFormat f, RgbOrder& o) {
  const PixelFormatInfo& info = pixelFormatInfo(f);
  if (info.plane_count != 1) return false;
  const int bpp = info.planes[0].bytes_per_sample;
  if (info.colour == ColourFamily::kRgb)
    return o = {bpp, info.r.byte_offset, info.g.byte_offset, info.b.byte_offset,
                info.a.present() ? info.a.byte_offset : -1},
           true;
  if (info.colour == ColourFamily::kGrey)
    return o = {bpp, info.y.byte_offset, info.y.byte_offset, info.y.byte_offset, -1}, true;
  return false;
}

YuvCoefficients yuvCoefficients(const Colorimetry& c) {
  const auto [kr, kg, kb, luma_span, chroma_span] = ycbcrWeights(c);
  const double ys = 255.0 / luma_span, cs = 255.0 / chroma_span;
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

Status checkCpuFrame(const Frame& f) {
  if (isBayer(f.format))
    return fail(ErrorCode::kUnsupported, "import: ", formatName(f.format),
                " frames are demosaiced by the pipeline (core/pipeline/bayer_frame.hpp)");
  auto layout = planeLayout(f.format, f.width, f.height);
  if (!layout) return layout.error();
  if (f.plane_count != int(layout->size()))
    return fail(ErrorCode::kInvalidArgument, "a ", formatName(f.format), " frame needs ",
                std::to_string(layout->size()), " planes, this one has ",
                std::to_string(f.plane_count));
  for (int i = 0; i < f.plane_count; ++i)
    if (!f.planes[i].data)
      return fail(ErrorCode::kInvalidArgument, "frame plane ", std::to_string(i),
                  " is not in CPU memory");
  return Status::success();
}

Result<RgbaImage> convertToRgbaCpu(const Frame& f) {
  if (isCompressed(f.format)) {
    auto decoded = decodeMjpeg(f);
    if (!decoded) return decoded.error();
    return convertToRgbaCpu(decoded->frame);
  }
  if (Status s = checkCpuFrame(f); !s) return s.error();
  const PixelFormatInfo& info = pixelFormatInfo(f.format);
  // One component's bytes, wherever the table puts them.
  struct Reader {
    const uint8_t* data = nullptr;
    ComponentOffsetTable offsets;
    int operator()(int x, int y) const {
      return data[offsets.row[size_t(y)] + offsets.column[size_t(x)]];
    }
  };
  auto reader = [&](const ComponentLocation& c) {
    if (!c.present()) return Reader{};
    const FramePlane& p = f.planes[size_t(c.plane)];
    return Reader{p.data, componentOffsets(info, c, f.width, f.height, p.stride)};
  };
  RgbaImage out(f.width, f.height);
  if (info.colour == ColourFamily::kYuv) {
    const YuvCoefficients k = yuvCoefficients(f.colorimetry);
    const Reader y = reader(info.y), cb = reader(info.cb), cr = reader(info.cr);
    for (int row = 0; row < f.height; ++row)
      for (int x = 0; x < f.width; ++x) {
        uint8_t* p = out.at(x, row);
        yuvToRgb(k, y(x, row), cb(x, row), cr(x, row), p);
        p[3] = 255;
      }
    return out;
  }
  const bool grey = info.colour == ColourFamily::kGrey;
  const Reader r = reader(grey ? info.y : info.r), g = reader(grey ? info.y : info.g),
               b = reader(grey ? info.y : info.b), a = reader(info.a);
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x) {
      uint8_t* p = out.at(x, y);
      p[0] = uint8_t(r(x, y)), p[1] = uint8_t(g(x, y)), p[2] = uint8_t(b(x, y));
      p[3] = uint8_t(a.data ? a(x, y) : 255);
    }
  return out;
}

Result<std::vector<uint8_t>> extractLumaPlane(const Frame& f) {
  const PixelFormatInfo& info = pixelFormatInfo(f.format);
  if (!info.y.present() || info.packing == Packing::kCompressed)
    return fail(ErrorCode::kInvalidArgument, formatName(f.format), " frames have no luma plane");
  const FramePlane& plane = f.planes[size_t(info.y.plane)];
  if (!plane.data) return fail(ErrorCode::kInvalidArgument, "the luma plane is not in CPU memory");
  const ComponentOffsetTable at = componentOffsets(info, info.y, f.width, f.height, plane.stride);
  std::vector<uint8_t> y(size_t(f.width) * f.height);
  for (int row = 0; row < f.height; ++row)
    for (int x = 0; x < f.width; ++x)
      y[size_t(row) * f.width + x] = plane.data[at.row[size_t(row)] + at.column[size_t(x)]];
  return y;
}

}  // namespace esf
