#include "capture/gst_video_frame.hpp"

#include <gst/allocators/gstdmabuf.h>

#include <string>

#include "esframe/base/sizes.hpp"

namespace esf::gst {
namespace {

struct FormatPair {
  GstVideoFormat gst;
  PixelFormat esframe;
};

// Byte order in memory on both sides: GStreamer names bytes, V4L2 names (base/pixel_format)
// say the same order. RGBx's padding byte is read as alpha, which no histogram channel counts.
constexpr FormatPair kFormats[] = {
    {GST_VIDEO_FORMAT_RGBA, PixelFormat::kRGBA32}, {GST_VIDEO_FORMAT_RGBx, PixelFormat::kRGBA32},
    {GST_VIDEO_FORMAT_BGRA, PixelFormat::kABGR32}, {GST_VIDEO_FORMAT_BGRx, PixelFormat::kXBGR32},
    {GST_VIDEO_FORMAT_ARGB, PixelFormat::kARGB32}, {GST_VIDEO_FORMAT_xRGB, PixelFormat::kXRGB32},
    {GST_VIDEO_FORMAT_RGB, PixelFormat::kRGB24},   {GST_VIDEO_FORMAT_BGR, PixelFormat::kBGR24},
    {GST_VIDEO_FORMAT_YUY2, PixelFormat::kYUYV},   {GST_VIDEO_FORMAT_UYVY, PixelFormat::kUYVY},
    {GST_VIDEO_FORMAT_NV12, PixelFormat::kNV12},   {GST_VIDEO_FORMAT_NV21, PixelFormat::kNV21},
    {GST_VIDEO_FORMAT_I420, PixelFormat::kYU12},   {GST_VIDEO_FORMAT_GRAY8, PixelFormat::kGREY},
};

}  // namespace

std::optional<PixelFormat> pixelFormatOf(GstVideoFormat format) {
  for (const FormatPair& p : kFormats)
    if (p.gst == format) return p.esframe;
  return std::nullopt;
}

const char* capsFormatList() {
  return "{ RGBA, RGBx, BGRA, BGRx, ARGB, xRGB, RGB, BGR, YUY2, UYVY, NV12, NV21, I420, GRAY8 }";
}

Status checkCapsLimits(const GstVideoInfo& info) {
  const int width = GST_VIDEO_INFO_WIDTH(&info), height = GST_VIDEO_INFO_HEIGHT(&info);
  const std::string what = "caps " + std::to_string(width) + "x" + std::to_string(height);
  if (Status s = checkFrameSize(what, width, height, ErrorCode::kUnsupported); !s) return s;
  if (uint64_t(GST_VIDEO_INFO_SIZE(&info)) > kMaxFrameBytes)
    return fail(ErrorCode::kUnsupported, what, ": ", std::to_string(GST_VIDEO_INFO_SIZE(&info)),
                " bytes a frame is over the ", std::to_string(kMaxFrameBytes >> 20),
                " MiB frame buffer limit");
  return {};
}

Frame frameOf(const GstVideoFrame& video, bool use_dmabuf) {
  const GstVideoInfo& info = video.info;
  Frame f;
  f.format = *pixelFormatOf(GST_VIDEO_INFO_FORMAT(&info));
  f.width = GST_VIDEO_INFO_WIDTH(&info);
  f.height = GST_VIDEO_INFO_HEIGHT(&info);
  f.colorimetry.encoding = info.colorimetry.matrix == GST_VIDEO_COLOR_MATRIX_BT709
                               ? YcbcrEncoding::kBt709
                               : YcbcrEncoding::kBt601;
  f.colorimetry.full_range = info.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255;
  f.plane_count = int(GST_VIDEO_INFO_N_PLANES(&info));
  for (int i = 0; i < f.plane_count; ++i) {
    FramePlane& p = f.planes[size_t(i)];
    p.data = static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&video, i));
    p.stride = GST_VIDEO_FRAME_PLANE_STRIDE(&video, i);
    // Every format of the table keeps component i first in plane i.
    // Within kMaxFrameBytes: the caps passed checkCapsLimits.
    p.size = saturatingSize(p.stride, GST_VIDEO_FRAME_COMP_HEIGHT(&video, i));
    if (!use_dmabuf) continue;
    guint index = 0, length = 0;
    gsize skip = 0;
    if (!gst_buffer_find_memory(video.buffer, GST_VIDEO_FRAME_PLANE_OFFSET(&video, i), 1, &index,
                                &length, &skip))
      continue;
    GstMemory* memory = gst_buffer_peek_memory(video.buffer, index);
    if (!gst_is_dmabuf_memory(memory)) continue;
    p.dmabuf_fd = gst_dmabuf_memory_get_fd(memory);
    p.offset = uint32_t(memory->offset + skip);
  }
  // The import takes all planes from dmabufs or none.
  for (int i = 0; i < f.plane_count; ++i)
    if (f.planes[size_t(i)].dmabuf_fd < 0)
      for (int k = 0; k < f.plane_count; ++k) f.planes[size_t(k)].dmabuf_fd = -1;
  f.timestamp_ns = GST_BUFFER_PTS_IS_VALID(video.buffer) ? GST_BUFFER_PTS(video.buffer) : 0;
  f.sequence = GST_BUFFER_OFFSET_IS_VALID(video.buffer) ? GST_BUFFER_OFFSET(video.buffer) : 0;
  return f;
}

}  // namespace esf::gst
