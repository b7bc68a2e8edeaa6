#include "capture/pixel_format.hpp"

#include <linux/videodev2.h>

#include <algorithm>
#include <cctype>

namespace esf {
namespace {

struct FormatInfo {
  PixelFormat format;
  const char* name;
  uint32_t fourcc;
  const char* alias;  // another accepted name, or ""
};

constexpr FormatInfo kFormats[] = {
    {PixelFormat::kRGBA32, "RGBA32", V4L2_PIX_FMT_RGBA32, "RGBA"},
    {PixelFormat::kYUYV, "YUYV", V4L2_PIX_FMT_YUYV, "YUY2"},
    {PixelFormat::kUYVY, "UYVY", V4L2_PIX_FMT_UYVY, ""},
    {PixelFormat::kNV12, "NV12", V4L2_PIX_FMT_NV12, ""},
    {PixelFormat::kNV21, "NV21", V4L2_PIX_FMT_NV21, ""},
    {PixelFormat::kYU12, "YU12", V4L2_PIX_FMT_YUV420, "I420"},
    {PixelFormat::kRGB24, "RGB24", V4L2_PIX_FMT_RGB24, "RGB"},
    {PixelFormat::kBGR24, "BGR24", V4L2_PIX_FMT_BGR24, "BGR"},
    {PixelFormat::kXRGB32, "XRGB32", V4L2_PIX_FMT_XRGB32, ""},
    {PixelFormat::kARGB32, "ARGB32", V4L2_PIX_FMT_ARGB32, ""},
    {PixelFormat::kXBGR32, "XBGR32", V4L2_PIX_FMT_XBGR32, ""},
    {PixelFormat::kABGR32, "ABGR32", V4L2_PIX_FMT_ABGR32, ""},
    {PixelFormat::kGREY, "GREY", V4L2_PIX_FMT_GREY, "GRAY"},
    {PixelFormat::kMJPEG, "MJPEG", V4L2_PIX_FMT_MJPEG, "JPEG"},
    {PixelFormat::kYUV422P, "YUV422P", V4L2_PIX_FMT_YUV422P, "I422"},
    {PixelFormat::kYUV444P, "YUV444P", V4L2_PIX_FMT_YUV444M, "I444"},
};

const FormatInfo& info(PixelFormat f) {
  for (const auto& i : kFormats)
    if (i.format == f) return i;
  return kFormats[0];
}

std::string upper(std::string s) {
  for (auto& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

const char* formatName(PixelFormat format) {
  return info(format).name;
}

const std::vector<PixelFormat>& allPixelFormats() {
  static const std::vector<PixelFormat> all = [] {
    std::vector<PixelFormat> v;
    for (const auto& i : kFormats) v.push_back(i.format);
    return v;
  }();
  return all;
}

Result<PixelFormat> parsePixelFormat(const std::string& name) {
  const std::string u = upper(name);
  for (const auto& i : kFormats) {
    if (u == i.name || u == i.alias || u == upper(fourccString(i.fourcc))) return i.format;
  }
  std::string known;
  for (const auto& i : kFormats) known += std::string(known.empty() ? "" : ", ") + i.name;
  return fail("unknown pixel format '", name, "' (known: ", known, ")");
}

uint32_t v4l2Fourcc(PixelFormat format) {
  return info(format).fourcc;
}

std::optional<PixelFormat> fromV4l2Fourcc(uint32_t fourcc) {
  for (const auto& i : kFormats)
    if (i.fourcc == fourcc) return i.format;
  if (fourcc == V4L2_PIX_FMT_JPEG) return PixelFormat::kMJPEG;
  return std::nullopt;
}

std::string fourccString(uint32_t fourcc) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    char c = char((fourcc >> (8 * i)) & 0xff);
    s += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

bool isYuv(PixelFormat f) {
  switch (f) {
    case PixelFormat::kYUYV:
    case PixelFormat::kUYVY:
    case PixelFormat::kNV12:
    case PixelFormat::kNV21:
    case PixelFormat::kYU12:
    case PixelFormat::kYUV422P:
    case PixelFormat::kYUV444P:
      return true;
    default:
      return false;
  }
}

bool isCompressed(PixelFormat f) {
  return f == PixelFormat::kMJPEG;
}

bool allowsOddWidth(PixelFormat f) {
  return f != PixelFormat::kYUYV && f != PixelFormat::kUYVY;
}

Result<std::vector<PlaneLayout>> planeLayout(PixelFormat format, int width, int height) {
  if (width <= 0 || height <= 0 || width > 65536 || height > 65536)
    return fail("bad frame size ", std::to_string(width), "x", std::to_string(height));
  if (!allowsOddWidth(format) && width % 2 != 0)
    return fail(formatName(format), " needs an even width, got ", std::to_string(width));
  const int cw = (width + 1) / 2, ch = (height + 1) / 2;
  switch (format) {
    case PixelFormat::kRGBA32:
    case PixelFormat::kXRGB32:
    case PixelFormat::kARGB32:
    case PixelFormat::kXBGR32:
    case PixelFormat::kABGR32:
      return std::vector<PlaneLayout>{{width * 4, height}};
    case PixelFormat::kRGB24:
    case PixelFormat::kBGR24:
      return std::vector<PlaneLayout>{{width * 3, height}};
    case PixelFormat::kYUYV:
    case PixelFormat::kUYVY:
      return std::vector<PlaneLayout>{{width * 2, height}};
    case PixelFormat::kGREY:
      return std::vector<PlaneLayout>{{width, height}};
    case PixelFormat::kNV12:
    case PixelFormat::kNV21:
      return std::vector<PlaneLayout>{{width, height}, {cw * 2, ch}};
    case PixelFormat::kYU12:
      return std::vector<PlaneLayout>{{width, height}, {cw, ch}, {cw, ch}};
    case PixelFormat::kYUV422P:
      return std::vector<PlaneLayout>{{width, height}, {cw, height}, {cw, height}};
    case PixelFormat::kYUV444P:
      return std::vector<PlaneLayout>{{width, height}, {width, height}, {width, height}};
    case PixelFormat::kMJPEG:
      return std::vector<PlaneLayout>{};
  }
  return fail("unknown pixel format");
}

Result<size_t> frameSize(PixelFormat format, int width, int height) {
  auto planes = planeLayout(format, width, height);
  if (!planes) return planes.error();
  if (planes->empty()) return fail(formatName(format), " frames have no fixed size");
  size_t total = 0;
  for (const auto& p : *planes) total += p.size();
  return total;
}

Status attachTightPlanes(Frame& frame, const uint8_t* bytes, size_t size) {
  if (frame.format == PixelFormat::kMJPEG) {
    frame.plane_count = 1;
    frame.planes[0] = FramePlane{bytes, size, 0};
    return {};
  }
  auto planes = planeLayout(frame.format, frame.width, frame.height);
  if (!planes) return planes.error();
  size_t offset = 0;
  frame.plane_count = int(planes->size());
  for (size_t i = 0; i < planes->size(); ++i) {
    const auto& p = (*planes)[i];
    if (offset + p.size() > size) return fail("frame data too short for its planes");
    frame.planes[i] = FramePlane{bytes + offset, p.size(), p.bytes_per_row};
    offset += p.size();
  }
  return {};
}

Result<std::optional<Frame>> makeTightFrame(PixelFormat format, int width, int height,
                                            const Colorimetry& colorimetry,
                                            const std::vector<uint8_t>& bytes, uint64_t sequence,
                                            uint64_t timestamp_ns, const std::string& source) {
  Frame f;
  f.format = format;
  f.width = width, f.height = height;
  f.colorimetry = colorimetry;
  if (auto s = attachTightPlanes(f, bytes.data(), bytes.size()); !s) return s.error();
  f.sequence = sequence;
  f.timestamp_ns = timestamp_ns;
  f.source = source;
  return std::optional<Frame>(std::move(f));
}

std::string colorimetryName(const Colorimetry& c) {
  return std::string(c.encoding == YcbcrEncoding::kBt709 ? "BT.709" : "BT.601") +
         (c.full_range ? " full" : " limited");
}

}  // namespace esf
