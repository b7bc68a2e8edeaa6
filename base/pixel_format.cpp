#include "base/pixel_format.hpp"

#include <linux/videodev2.h>

#include <algorithm>
#include <cctype>

#include "base/api_guard.hpp"

namespace esf {
namespace {

constexpr ComponentLocation at(int plane, int byte_offset) {
  return {plane, byte_offset, 0, false};
}
constexpr ComponentLocation chromaAt(int plane, int byte_offset, int block_sample = 0) {
  return {plane, byte_offset, block_sample, true};
}

// A packed R'G'B' format: one plane of `bytes` per pixel, components at these byte offsets (no
// alpha: a < 0).
constexpr PixelFormatInfo rgb(PixelFormat f, const char* name, uint32_t fourcc, const char* alias,
                              int bytes, int r, int g, int b, int a) {
  return {.format = f,
          .name = name,
          .v4l2_fourcc = fourcc,
          .alias = alias,
          .planes = {{{bytes, 1, 1}}},
          .r = at(0, r),
          .g = at(0, g),
          .b = at(0, b),
          .a = a < 0 ? ComponentLocation{} : at(0, a)};
}

// A Y'CbCr format with chroma subsampled sx x sy.
constexpr PixelFormatInfo yuv(PixelFormat f, const char* name, uint32_t fourcc, const char* alias,
                              Packing packing, int alignment, int sx, int sy, int planes,
                              std::array<PlaneInfo, 3> plane_info, ComponentLocation y,
                              ComponentLocation cb, ComponentLocation cr,
                              uint32_t mplane_fourcc = 0, const char* mplane_name = "") {
  const ComponentLocation none{};
  return {f,
          name,
          fourcc,
          alias,
          ColourFamily::kYuv,
          packing,
          8,
          alignment,
          sx,
          sy,
          planes,
          plane_info,
          y,
          cb,
          cr,
          none,
          none,
          none,
          none,
          mplane_fourcc,
          mplane_name,
          CfaOrder::kRGGB};
}

// A Bayer format: one plane whose sample holds `pixels` values in `bytes` bytes (bayer_layout.hpp);
// a width must fill whole samples.
constexpr PixelFormatInfo bayer(PixelFormat f, const char* name, uint32_t fourcc, CfaOrder cfa,
                                int bits, int bytes, int pixels) {
  return {.format = f,
          .name = name,
          .v4l2_fourcc = fourcc,
          .colour = ColourFamily::kBayer,
          .bit_depth = bits,
          .width_alignment = pixels,
          .planes = {{{bytes, pixels, 1}}},
          .cfa = cfa};
}

// Sample sizes as V4L2 documents each layout (Documentation/userspace-api/media/v4l).
constexpr PixelFormatInfo kFormats[] = {
    rgb(PixelFormat::kRGBA32, "RGBA32", V4L2_PIX_FMT_RGBA32, "RGBA", 4, 0, 1, 2, 3),
    // Y0 Cb Y1 Cr: a Y+C sample per pixel, Cb in the pair's first sample, Cr in its second.
    yuv(PixelFormat::kYUYV, "YUYV", V4L2_PIX_FMT_YUYV, "YUY2", Packing::kPacked, 2, 2, 1, 1,
        {{{2, 1, 1}}}, at(0, 0), chromaAt(0, 1, 0), chromaAt(0, 1, 1)),
    // Cb Y0 Cr Y1
    yuv(PixelFormat::kUYVY, "UYVY", V4L2_PIX_FMT_UYVY, "", Packing::kPacked, 2, 2, 1, 1,
        {{{2, 1, 1}}}, at(0, 1), chromaAt(0, 0, 0), chromaAt(0, 0, 1)),
    yuv(PixelFormat::kNV12, "NV12", V4L2_PIX_FMT_NV12, "", Packing::kSemiPlanar, 1, 2, 2, 2,
        {{{1, 1, 1}, {2, 2, 2}}}, at(0, 0), chromaAt(1, 0), chromaAt(1, 1), V4L2_PIX_FMT_NV12M,
        "NV12M"),
    yuv(PixelFormat::kNV21, "NV21", V4L2_PIX_FMT_NV21, "", Packing::kSemiPlanar, 1, 2, 2, 2,
        {{{1, 1, 1}, {2, 2, 2}}}, at(0, 0), chromaAt(1, 1), chromaAt(1, 0), V4L2_PIX_FMT_NV21M,
        "NV21M"),
    yuv(PixelFormat::kYU12, "YU12", V4L2_PIX_FMT_YUV420, "I420", Packing::kPlanar, 1, 2, 2, 3,
        {{{1, 1, 1}, {1, 2, 2}, {1, 2, 2}}}, at(0, 0), chromaAt(1, 0), chromaAt(2, 0),
        V4L2_PIX_FMT_YUV420M, "YUV420M"),
    rgb(PixelFormat::kRGB24, "RGB24", V4L2_PIX_FMT_RGB24, "RGB", 3, 0, 1, 2, -1),
    rgb(PixelFormat::kBGR24, "BGR24", V4L2_PIX_FMT_BGR24, "BGR", 3, 2, 1, 0, -1),
    rgb(PixelFormat::kXRGB32, "XRGB32", V4L2_PIX_FMT_XRGB32, "", 4, 1, 2, 3, -1),  // X R G B
    rgb(PixelFormat::kARGB32, "ARGB32", V4L2_PIX_FMT_ARGB32, "", 4, 1, 2, 3, 0),   // A R G B
    rgb(PixelFormat::kXBGR32, "XBGR32", V4L2_PIX_FMT_XBGR32, "", 4, 2, 1, 0, -1),  // B G R X
    rgb(PixelFormat::kABGR32, "ABGR32", V4L2_PIX_FMT_ABGR32, "", 4, 2, 1, 0, 3),   // B G R A
    {.format = PixelFormat::kGREY,
     .name = "GREY",
     .v4l2_fourcc = V4L2_PIX_FMT_GREY,
     .alias = "GRAY",
     .colour = ColourFamily::kGrey,
     .planes = {{{1, 1, 1}}},
     .y = at(0, 0)},
    {.format = PixelFormat::kMJPEG,
     .name = "MJPEG",
     .v4l2_fourcc = V4L2_PIX_FMT_MJPEG,
     .alias = "JPEG",
     .colour = ColourFamily::kYuv,
     .packing = Packing::kCompressed,
     .plane_count = 0},
    yuv(PixelFormat::kYUV422P, "YUV422P", V4L2_PIX_FMT_YUV422P, "I422", Packing::kPlanar, 1, 2, 1,
        3, {{{1, 1, 1}, {1, 2, 1}, {1, 2, 1}}}, at(0, 0), chromaAt(1, 0), chromaAt(2, 0),
        V4L2_PIX_FMT_YUV422M, "YUV422M"),
    yuv(PixelFormat::kYUV444P, "YUV444P", V4L2_PIX_FMT_YUV444M, "I444", Packing::kPlanar, 1, 1, 1,
        3, {{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}}}, at(0, 0), chromaAt(1, 0), chromaAt(2, 0)),
    bayer(PixelFormat::kSBGGR8, "SBGGR8", V4L2_PIX_FMT_SBGGR8, CfaOrder::kBGGR, 8, 1, 1),
    bayer(PixelFormat::kSGBRG8, "SGBRG8", V4L2_PIX_FMT_SGBRG8, CfaOrder::kGBRG, 8, 1, 1),
    bayer(PixelFormat::kSGRBG8, "SGRBG8", V4L2_PIX_FMT_SGRBG8, CfaOrder::kGRBG, 8, 1, 1),
    bayer(PixelFormat::kSRGGB8, "SRGGB8", V4L2_PIX_FMT_SRGGB8, CfaOrder::kRGGB, 8, 1, 1),
    bayer(PixelFormat::kSBGGR10, "SBGGR10", V4L2_PIX_FMT_SBGGR10, CfaOrder::kBGGR, 10, 2, 1),
    bayer(PixelFormat::kSGBRG10, "SGBRG10", V4L2_PIX_FMT_SGBRG10, CfaOrder::kGBRG, 10, 2, 1),
    bayer(PixelFormat::kSGRBG10, "SGRBG10", V4L2_PIX_FMT_SGRBG10, CfaOrder::kGRBG, 10, 2, 1),
    bayer(PixelFormat::kSRGGB10, "SRGGB10", V4L2_PIX_FMT_SRGGB10, CfaOrder::kRGGB, 10, 2, 1),
    bayer(PixelFormat::kSBGGR12, "SBGGR12", V4L2_PIX_FMT_SBGGR12, CfaOrder::kBGGR, 12, 2, 1),
    bayer(PixelFormat::kSGBRG12, "SGBRG12", V4L2_PIX_FMT_SGBRG12, CfaOrder::kGBRG, 12, 2, 1),
    bayer(PixelFormat::kSGRBG12, "SGRBG12", V4L2_PIX_FMT_SGRBG12, CfaOrder::kGRBG, 12, 2, 1),
    bayer(PixelFormat::kSRGGB12, "SRGGB12", V4L2_PIX_FMT_SRGGB12, CfaOrder::kRGGB, 12, 2, 1),
    bayer(PixelFormat::kSBGGR16, "SBGGR16", V4L2_PIX_FMT_SBGGR16, CfaOrder::kBGGR, 16, 2, 1),
    bayer(PixelFormat::kSGBRG16, "SGBRG16", V4L2_PIX_FMT_SGBRG16, CfaOrder::kGBRG, 16, 2, 1),
    bayer(PixelFormat::kSGRBG16, "SGRBG16", V4L2_PIX_FMT_SGRBG16, CfaOrder::kGRBG, 16, 2, 1),
    bayer(PixelFormat::kSRGGB16, "SRGGB16", V4L2_PIX_FMT_SRGGB16, CfaOrder::kRGGB, 16, 2, 1),
    bayer(PixelFormat::kSBGGR10P, "SBGGR10P", V4L2_PIX_FMT_SBGGR10P, CfaOrder::kBGGR, 10, 5, 4),
    bayer(PixelFormat::kSGBRG10P, "SGBRG10P", V4L2_PIX_FMT_SGBRG10P, CfaOrder::kGBRG, 10, 5, 4),
    bayer(PixelFormat::kSGRBG10P, "SGRBG10P", V4L2_PIX_FMT_SGRBG10P, CfaOrder::kGRBG, 10, 5, 4),
    bayer(PixelFormat::kSRGGB10P, "SRGGB10P", V4L2_PIX_FMT_SRGGB10P, CfaOrder::kRGGB, 10, 5, 4),
    bayer(PixelFormat::kSBGGR12P, "SBGGR12P", V4L2_PIX_FMT_SBGGR12P, CfaOrder::kBGGR, 12, 3, 2),
    bayer(PixelFormat::kSGBRG12P, "SGBRG12P", V4L2_PIX_FMT_SGBRG12P, CfaOrder::kGBRG, 12, 3, 2),
    bayer(PixelFormat::kSGRBG12P, "SGRBG12P", V4L2_PIX_FMT_SGRBG12P, CfaOrder::kGRBG, 12, 3, 2),
    bayer(PixelFormat::kSRGGB12P, "SRGGB12P", V4L2_PIX_FMT_SRGGB12P, CfaOrder::kRGGB, 12, 3, 2),
};

std::string upper(std::string s) {
  for (auto& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

const PixelFormatInfo& pixelFormatInfo(PixelFormat format) {
  for (const auto& i : kFormats)
    if (i.format == format) return i;
  return kFormats[0];  // unreachable: every enumerator has a row (test_import checks)
}

const char* formatName(PixelFormat format) {
  return pixelFormatInfo(format).name;
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
  return guard("pixel format name", [&]() -> Result<PixelFormat> {
    const std::string u = upper(name);
    // Fourccs with lower-case letters ('pgAA' SGRBG10P, 'pGAA' SGBRG10P) differ only in case: those
    // must be given exactly; all-upper-case ones ("rgb3") are taken in any case.
    auto fourccMatches = [&](uint32_t fourcc) {
      const std::string f = fourccString(fourcc);
      return name == f || (f == upper(f) && u == f);
    };
    for (const auto& i : kFormats) {
      if (u == i.name || u == i.alias || fourccMatches(i.v4l2_fourcc)) return i.format;
      if (i.v4l2_mplane_fourcc && (u == i.mplane_name || u == fourccString(i.v4l2_mplane_fourcc)))
        return i.format;
    }
    std::string known;
    for (const auto& i : kFormats) known += std::string(known.empty() ? "" : ", ") + i.name;
    return fail(ErrorCode::kInvalidArgument, "unknown pixel format '", name, "' (known: ", known,
                ")");
  });
}

uint32_t v4l2Fourcc(PixelFormat format) {
  return pixelFormatInfo(format).v4l2_fourcc;
}

std::optional<PixelFormat> fromV4l2Fourcc(uint32_t fourcc) {
  for (const auto& i : kFormats)
    if (i.v4l2_fourcc == fourcc || (fourcc != 0 && i.v4l2_mplane_fourcc == fourcc)) return i.format;
  if (fourcc == V4L2_PIX_FMT_JPEG) return PixelFormat::kMJPEG;
  return std::nullopt;
}

namespace {

// Each row of kFormats that DRM has a name for, as drm_fourcc.h spells the codes (base does
// not depend on libdrm; tests/capture checks these against its header). MJPEG is libcamera's
// 'MJPG'.
constexpr uint32_t drmCode(const char (&c)[5]) {
  return uint32_t(uint8_t(c[0])) | uint32_t(uint8_t(c[1])) << 8 | uint32_t(uint8_t(c[2])) << 16 |
         uint32_t(uint8_t(c[3])) << 24;
}
struct DrmFourcc {
  PixelFormat format;
  uint32_t drm;
};
constexpr DrmFourcc kDrmFourccs[] = {
    {PixelFormat::kRGBA32, drmCode("AB24")},   // DRM_FORMAT_ABGR8888
    {PixelFormat::kYUYV, drmCode("YUYV")},     // DRM_FORMAT_YUYV
    {PixelFormat::kUYVY, drmCode("UYVY")},     // DRM_FORMAT_UYVY
    {PixelFormat::kNV12, drmCode("NV12")},     // DRM_FORMAT_NV12
    {PixelFormat::kNV21, drmCode("NV21")},     // DRM_FORMAT_NV21
    {PixelFormat::kYU12, drmCode("YU12")},     // DRM_FORMAT_YUV420
    {PixelFormat::kRGB24, drmCode("BG24")},    // DRM_FORMAT_BGR888
    {PixelFormat::kBGR24, drmCode("RG24")},    // DRM_FORMAT_RGB888
    {PixelFormat::kXRGB32, drmCode("BX24")},   // DRM_FORMAT_BGRX8888
    {PixelFormat::kARGB32, drmCode("BA24")},   // DRM_FORMAT_BGRA8888
    {PixelFormat::kXBGR32, drmCode("XR24")},   // DRM_FORMAT_XRGB8888
    {PixelFormat::kABGR32, drmCode("AR24")},   // DRM_FORMAT_ARGB8888
    {PixelFormat::kGREY, drmCode("R8  ")},     // DRM_FORMAT_R8
    {PixelFormat::kMJPEG, drmCode("MJPG")},    // libcamera's formats::MJPEG
    {PixelFormat::kYUV422P, drmCode("YU16")},  // DRM_FORMAT_YUV422
    {PixelFormat::kYUV444P, drmCode("YU24")},  // DRM_FORMAT_YUV444
};

}  // namespace

uint32_t drmFourcc(PixelFormat format) {
  for (const DrmFourcc& d : kDrmFourccs)
    if (d.format == format) return d.drm;
  return 0;
}

std::optional<PixelFormat> fromDrmFourcc(uint32_t fourcc) {
  for (const DrmFourcc& d : kDrmFourccs)
    if (fourcc != 0 && d.drm == fourcc) return d.format;
  return std::nullopt;
}

bool isV4l2MplaneFourcc(uint32_t fourcc) {
  for (const auto& i : kFormats)
    if (fourcc != 0 && i.v4l2_mplane_fourcc == fourcc) return true;
  return false;
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
  const PixelFormatInfo& i = pixelFormatInfo(f);
  return i.colour == ColourFamily::kYuv && i.packing != Packing::kCompressed;
}

bool isCompressed(PixelFormat f) {
  return pixelFormatInfo(f).packing == Packing::kCompressed;
}

bool isBayer(PixelFormat f) {
  return pixelFormatInfo(f).colour == ColourFamily::kBayer;
}

BayerRowLayout bayerRowLayout(const PixelFormatInfo& info) {
  return {info.bit_depth, info.planes[0].bytes_per_sample, info.planes[0].horizontal_subsampling};
}

bool allowsOddWidth(PixelFormat f) {
  return pixelFormatInfo(f).width_alignment == 1;
}

int planeSamplesPerRow(const PixelFormatInfo& info, int plane, int width) {
  const int sub = info.planes[size_t(plane)].horizontal_subsampling;
  return (width + sub - 1) / sub;
}

int planeRows(const PixelFormatInfo& info, int plane, int height) {
  const int sub = info.planes[size_t(plane)].vertical_subsampling;
  return (height + sub - 1) / sub;
}

Result<std::vector<PlaneLayout>> planeLayout(PixelFormat format, int width, int height) {
  if (Status s = checkFrameSize("", width, height); !s) return s.error();
  const PixelFormatInfo& info = pixelFormatInfo(format);
  if (width % info.width_alignment != 0)
    return fail(ErrorCode::kInvalidArgument, info.name,
                info.width_alignment == 2 ? " needs an even width"
                                          : " needs a width that is a multiple of " +
                                                std::to_string(info.width_alignment),
                ", got ", std::to_string(width));
  std::vector<PlaneLayout> planes;
  uint64_t total = 0;
  for (int i = 0; i < info.plane_count; ++i) {
    const int samples = planeSamplesPerRow(info, i, width), rows = planeRows(info, i, height);
    const int bytes_per_sample = info.planes[size_t(i)].bytes_per_sample;
    // Called for every frame: the message is made only when the plane is refused.
    const std::optional<uint64_t> bytes = checkedProduct(samples, bytes_per_sample, rows);
    if (!bytes || *bytes > kMaxFrameBytes)
      return frameBufferSize(std::string(info.name) + " plane " + std::to_string(i), samples,
                             bytes_per_sample, rows)
          .error();
    total += *bytes;  // at most three planes of at most 2^30 bytes each
    // Within kMaxFrameBytes, so the row (at most the plane) fits an int.
    planes.push_back({samples * bytes_per_sample, rows});
  }
  if (total > kMaxFrameBytes)
    return fail(ErrorCode::kInvalidArgument, info.name, " frame of ", std::to_string(width), "x",
                std::to_string(height), ": ", std::to_string(total), " bytes is over the ",
                std::to_string(kMaxFrameBytes >> 20), " MiB frame buffer limit");
  return planes;
}

Result<size_t> frameSize(PixelFormat format, int width, int height) {
  auto planes = planeLayout(format, width, height);
  if (!planes) return planes.error();
  if (planes->empty())
    return fail(ErrorCode::kInvalidArgument, formatName(format), " frames have no fixed size");
  size_t total = 0;  // planeLayout checked the sum against kMaxFrameBytes
  for (const auto& p : *planes) total += p.size();
  return total;
}

Result<std::vector<PlaneSlice>> v4l2PlaneSlices(PixelFormat format, int height,
                                                int bytes_per_line) {
  const PixelFormatInfo& info = pixelFormatInfo(format);
  std::vector<PlaneSlice> slices;
  uint64_t offset = 0;
  for (int i = 0; i < info.plane_count; ++i) {
    const PlaneInfo& plane = info.planes[size_t(i)];
    // Relative to plane 0's bytes per pixel (a 10P sample holds 4 pixels in 5 bytes). In 64
    // bits: a driver's bytesperline near 2^31 times 4 overflows an int.
    const std::optional<uint64_t> scaled = checkedProduct(bytes_per_line, plane.bytes_per_sample,
                                                          info.planes[0].horizontal_subsampling);
    const uint64_t stride =
        scaled ? *scaled / uint64_t(plane.horizontal_subsampling * info.planes[0].bytes_per_sample)
               : kMaxFrameBytes + 1;
    const std::optional<uint64_t> size = checkedProduct(stride, planeRows(info, i, height));
    if (!size || !checkedSum(offset, *size) || offset + *size > kMaxFrameBytes)
      return fail(ErrorCode::kUnsupported, info.name, " buffer of ", std::to_string(height),
                  " rows of ", std::to_string(bytes_per_line), " bytes: over the ",
                  std::to_string(kMaxFrameBytes >> 20), " MiB frame buffer limit");
    slices.push_back({size_t(offset), int(stride), size_t(*size)});  // all below 2^30
    offset += *size;
  }
  return slices;
}

size_t componentOffset(const PixelFormatInfo& info, const ComponentLocation& c, int x, int y,
                       int stride) {
  const PlaneInfo& plane = info.planes[size_t(c.plane)];
  if (c.subsampled) {  // the sample `block_sample` of the pixel's chroma block
    x = x / info.chroma_horizontal_subsampling * info.chroma_horizontal_subsampling +
        c.block_sample * plane.horizontal_subsampling;
    y = y / info.chroma_vertical_subsampling * info.chroma_vertical_subsampling;
  }
  return size_t(y / plane.vertical_subsampling) * size_t(stride) +
         size_t(x / plane.horizontal_subsampling) * size_t(plane.bytes_per_sample) +
         size_t(c.byte_offset);
}

ComponentOffsetTable componentOffsets(const PixelFormatInfo& info, const ComponentLocation& c,
                                      int width, int height, int stride) {
  ComponentOffsetTable t;
  t.column.resize(size_t(width));
  t.row.resize(size_t(height));
  for (int x = 0; x < width; ++x) t.column[size_t(x)] = componentOffset(info, c, x, 0, stride);
  for (int y = 0; y < height; ++y)
    t.row[size_t(y)] = componentOffset(info, c, 0, y, stride) - t.column[0];
  return t;
}

Status attachTightPlanes(Frame& frame, const uint8_t* bytes, size_t size) {
  if (isCompressed(frame.format)) {
    frame.plane_count = 1;
    frame.planes[0] = FramePlane{bytes, size, 0};
    return {};
  }
  auto planes = planeLayout(frame.format, frame.width, frame.height);
  if (!planes) return planes.error();
  size_t offset = 0;  // at most kMaxFrameBytes (planeLayout)
  frame.plane_count = int(planes->size());
  for (size_t i = 0; i < planes->size(); ++i) {
    const auto& p = (*planes)[i];
    if (offset + p.size() > size)
      return fail(ErrorCode::kInvalidArgument, "frame data too short for its planes");
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
