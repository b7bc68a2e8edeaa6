#include "capture/v4l2_format.hpp"

#include <linux/videodev2.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/pixel_format.hpp"
#include "capture/v4l2_device.hpp"

namespace esf {
namespace {

V4l2StreamFormat fromV4l2(const v4l2_format& f) {
  V4l2StreamFormat s;
  s.multi_planar = f.type == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
  if (!s.multi_planar) {
    const v4l2_pix_format& p = f.fmt.pix;
    s.width = p.width, s.height = p.height, s.pixelformat = p.pixelformat, s.field = p.field;
    s.colorspace = p.colorspace, s.ycbcr_enc = p.ycbcr_enc, s.quantization = p.quantization;
    s.bytesperline[0] = p.bytesperline;
    s.sizeimage[0] = p.sizeimage;
    return s;
  }
  const v4l2_pix_format_mplane& p = f.fmt.pix_mp;
  s.width = p.width, s.height = p.height, s.pixelformat = p.pixelformat, s.field = p.field;
  s.colorspace = p.colorspace, s.ycbcr_enc = p.ycbcr_enc, s.quantization = p.quantization;
  s.memory_planes = std::clamp<int>(p.num_planes, 1, kMaxMemoryPlanes);
  for (int i = 0; i < s.memory_planes; ++i) {
    s.bytesperline[size_t(i)] = p.plane_fmt[i].bytesperline;
    s.sizeimage[size_t(i)] = p.plane_fmt[i].sizeimage;
  }
  return s;
}

bool listsFormat(int fd, uint32_t type, uint32_t fourcc) {
  for (uint32_t i = 0; i < 256; ++i) {
    v4l2_fmtdesc d{};
    d.index = i;
    d.type = type;
    if (xioctl(fd, VIDIOC_ENUM_FMT, &d) != 0) return false;
    if (d.pixelformat == fourcc) return true;
  }
  return false;
}

}  // namespace

uint32_t V4l2StreamFormat::bufferType() const {
  return multi_planar ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

std::string describe(const V4l2StreamFormat& f) {
  return std::to_string(f.width) + "x" + std::to_string(f.height) + " " +
         fourccString(f.pixelformat);
}

Result<V4l2StreamFormat> getV4l2Format(int fd, const std::string& device, bool multi_planar) {
  v4l2_format fmt{};
  fmt.type = multi_planar ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (xioctl(fd, VIDIOC_G_FMT, &fmt) != 0)
    return fail(errorCodeFromErrno(errno), device, ": VIDIOC_G_FMT failed: ", std::strerror(errno));
  return fromV4l2(fmt);
}

Result<V4l2StreamFormat> setV4l2Format(int fd, const std::string& device,
                                       const V4l2StreamFormat& current, int width, int height,
                                       std::optional<PixelFormat> format) {
  V4l2StreamFormat want = current;
  if (width > 0) want.width = uint32_t(width), want.height = uint32_t(height);
  if (format) {
    want.pixelformat = v4l2Fourcc(*format);
    const uint32_t variant = pixelFormatInfo(*format).v4l2_mplane_fourcc;
    if (current.multi_planar && variant != 0 && listsFormat(fd, current.bufferType(), variant))
      want.pixelformat = variant;
  }
  // The driver's current format, changed where asked: its other fields stay as they were.
  v4l2_format fmt{};
  fmt.type = current.bufferType();
  if (xioctl(fd, VIDIOC_G_FMT, &fmt) != 0)
    return fail(errorCodeFromErrno(errno), device, ": VIDIOC_G_FMT failed: ", std::strerror(errno));
  if (current.multi_planar) {
    v4l2_pix_format_mplane& p = fmt.fmt.pix_mp;
    p.width = want.width, p.height = want.height, p.pixelformat = want.pixelformat;
    p.field = V4L2_FIELD_NONE;
    for (auto& plane : p.plane_fmt) plane.bytesperline = 0, plane.sizeimage = 0;
  } else {
    v4l2_pix_format& p = fmt.fmt.pix;
    p.width = want.width, p.height = want.height, p.pixelformat = want.pixelformat;
    p.field = V4L2_FIELD_NONE;
    p.bytesperline = 0, p.sizeimage = 0;
  }
  if (xioctl(fd, VIDIOC_S_FMT, &fmt) != 0)
    return fail(errorCodeFromErrno(errno), device, ": VIDIOC_S_FMT ", describe(want),
                " failed: ", std::strerror(errno));
  return fromV4l2(fmt);
}

Result<V4l2StreamFormat> setV4l2Pitches(int fd, const std::string& device,
                                        const V4l2StreamFormat& current,
                                        const std::array<uint32_t, kMaxMemoryPlanes>& pitches) {
  v4l2_format fmt{};
  fmt.type = current.bufferType();
  if (xioctl(fd, VIDIOC_G_FMT, &fmt) != 0)
    return fail(errorCodeFromErrno(errno), device, ": VIDIOC_G_FMT failed: ", std::strerror(errno));
  if (current.multi_planar) {
    v4l2_pix_format_mplane& p = fmt.fmt.pix_mp;
    for (int i = 0; i < current.memory_planes; ++i)
      p.plane_fmt[i].bytesperline = pitches[size_t(i)], p.plane_fmt[i].sizeimage = 0;
  } else {
    fmt.fmt.pix.bytesperline = pitches[0], fmt.fmt.pix.sizeimage = 0;
  }
  if (xioctl(fd, VIDIOC_S_FMT, &fmt) != 0)
    return fail(errorCodeFromErrno(errno), device, ": VIDIOC_S_FMT ", describe(current),
                " with the GPU's row pitch failed: ", std::strerror(errno));
  return fromV4l2(fmt);
}

Status checkV4l2FrameLimits(const V4l2StreamFormat& f, const std::string& device) {
  const std::string what = device + ": the driver's format " + describe(f);
  if (Status s = checkFrameSize(what, f.width, f.height, ErrorCode::kUnsupported); !s) return s;
  const std::optional<PixelFormat> format = fromV4l2Fourcc(f.pixelformat);
  const PixelFormatInfo* info = format ? &pixelFormatInfo(*format) : nullptr;
  for (int i = 0; i < f.memory_planes; ++i) {
    const size_t p = size_t(i);
    // Rows of this memory plane: the whole frame's for a single buffer, the plane's own for
    // one buffer per plane.
    const int rows = info && f.memory_planes > 1 && i < info->plane_count
                         ? planeRows(*info, i, int(f.height))
                         : int(f.height);
    if (f.sizeimage[p] > kMaxFrameBytes || !frameBufferSize(what, f.bytesperline[p], rows))
      return fail(ErrorCode::kUnsupported, what, ": plane ", std::to_string(i), " of ",
                  std::to_string(f.bytesperline[p]), " bytes a row, ",
                  std::to_string(f.sizeimage[p]), " bytes, is over the ",
                  std::to_string(kMaxFrameBytes >> 20), " MiB frame buffer limit");
  }
  if (info && info->plane_count > 0 && f.memory_planes == 1)
    if (auto slices = v4l2PlaneSlices(*format, int(f.height), int(f.bytesperline[0])); !slices)
      return fail(slices.error().code, what, ": ", slices.error().message);
  return {};
}

Colorimetry colorimetryOf(const V4l2StreamFormat& f) {
  const auto cs = v4l2_colorspace(f.colorspace);
  uint32_t enc = f.ycbcr_enc;
  if (enc == V4L2_YCBCR_ENC_DEFAULT) enc = V4L2_MAP_YCBCR_ENC_DEFAULT(cs);
  uint32_t quant = f.quantization;
  if (quant == V4L2_QUANTIZATION_DEFAULT)
    quant = V4L2_MAP_QUANTIZATION_DEFAULT(false, cs, v4l2_ycbcr_encoding(enc));
  Colorimetry c;
  c.encoding = (enc == V4L2_YCBCR_ENC_709 || enc == V4L2_YCBCR_ENC_XV709) ? YcbcrEncoding::kBt709
                                                                          : YcbcrEncoding::kBt601;
  c.full_range = quant == V4L2_QUANTIZATION_FULL_RANGE;
  return c;
}

}  // namespace esf
