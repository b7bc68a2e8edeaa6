#pragma once
// A capture queue's format through either V4L2 API: single-planar (v4l2_pix_format, every plane
// in one buffer) or multi-planar (v4l2_pix_format_mplane, each memory plane its own buffer with
// its own pitch). The source streams the same way from both; only the ioctls' structs differ.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"

namespace esf {

inline constexpr int kMaxMemoryPlanes = 3;  // esframe's formats have at most three planes

struct V4l2StreamFormat {
  bool multi_planar = false;
  uint32_t width = 0, height = 0, pixelformat = 0, field = 0;
  uint32_t colorspace = 0, ycbcr_enc = 0, quantization = 0;
  int memory_planes = 1;  // buffers per frame: 1, or one per plane (NV12M, YUV420M)
  std::array<uint32_t, kMaxMemoryPlanes> bytesperline{}, sizeimage{};
  uint32_t bufferType() const;  // V4L2_BUF_TYPE_VIDEO_CAPTURE or ..._MPLANE
};

// "640x480 NV12M".
std::string describe(const V4l2StreamFormat& format);

// VIDIOC_G_FMT of the capture queue.
Result<V4l2StreamFormat> getV4l2Format(int fd, const std::string& device, bool multi_planar);

// VIDIOC_S_FMT of a size and/or a format (the current one for what is not given). On a
// multi-planar queue a planar format is asked for as its multi-planar variant (NV12 as NV12M)
// when the driver lists it: the layout such hardware writes natively, one buffer per plane.
// Returns what the driver set.
Result<V4l2StreamFormat> setV4l2Format(int fd, const std::string& device,
                                       const V4l2StreamFormat& current, int width, int height,
                                       std::optional<PixelFormat> format);

// VIDIOC_S_FMT of the current format with each memory plane's rows `pitches` bytes apart (what a
// zero-copy importer's buffers need). Returns what the driver set, which may keep its own pitch.
Result<V4l2StreamFormat> setV4l2Pitches(int fd, const std::string& device,
                                        const V4l2StreamFormat& current,
                                        const std::array<uint32_t, kMaxMemoryPlanes>& pitches);

// The frame limits (esframe/base/sizes.hpp) on what a driver set: the size, and every plane's
// bytesperline x rows and sizeimage within kMaxFrameBytes. kUnsupported naming `device` and the
// format; checked before any buffer is asked for, since a driver may answer any size.
Status checkV4l2FrameLimits(const V4l2StreamFormat& format, const std::string& device);

// BT.601/709 and the range from the driver's colorspace fields, their defaults when unset.
Colorimetry colorimetryOf(const V4l2StreamFormat& format);

}  // namespace esf
