#include "core/import/mjpeg_decode.hpp"

#include <libv4lconvert.h>
#include <linux/videodev2.h>

#include <span>

#include "capture/still_image.hpp"
#include "core/import/v4lconvert_memory.hpp"

namespace esf {
namespace {

v4lconvert_data* decoder() {
  thread_local V4lconvert data = v4lconvertInMemory();
  return data.get();
}

}  // namespace

Result<DecodedFrame> decodeMjpeg(const Frame& f) {
  const FramePlane& p = f.planes[0];
  if (!p.data || p.size == 0) return fail(ErrorCode::kCorruptData, f.source, ": empty MJPEG frame");
  if (f.width <= 0 || f.height <= 0)
    return fail(ErrorCode::kInvalidArgument, f.source, ": MJPEG frame without a size");
  if (!jpegComplete(std::span<const uint8_t>(p.data, p.size)))
    return fail(ErrorCode::kCorruptData, f.source, ": truncated or corrupt MJPEG frame ",
                std::to_string(f.sequence));
  v4lconvert_data* d = decoder();
  if (!d) return fail(ErrorCode::kInternal, "cannot create the libv4lconvert MJPEG decoder");
  v4l2_format src{}, dst{};
  src.type = dst.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  src.fmt.pix.width = uint32_t(f.width);
  src.fmt.pix.height = uint32_t(f.height);
  src.fmt.pix.pixelformat = V4L2_PIX_FMT_MJPEG;
  dst.fmt.pix = src.fmt.pix;
  dst.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
  dst.fmt.pix.bytesperline = uint32_t(f.width) * 3;
  dst.fmt.pix.sizeimage = dst.fmt.pix.bytesperline * uint32_t(f.height);
  DecodedFrame out;
  out.rgb.resize(dst.fmt.pix.sizeimage);
  const int n = v4lconvert_convert(d, &src, &dst, const_cast<uint8_t*>(p.data), int(p.size),
                                   out.rgb.data(), int(out.rgb.size()));
  if (n != int(out.rgb.size()))
    return fail(ErrorCode::kCorruptData, f.source, ": cannot decode MJPEG frame ",
                std::to_string(f.sequence), " (", v4lconvert_get_error_message(d), ")");
  out.frame = f;
  out.frame.format = PixelFormat::kRGB24;
  out.frame.plane_count = 1;
  out.frame.planes = {};
  out.frame.planes[0] = FramePlane{out.rgb.data(), out.rgb.size(), f.width * 3};
  return out;
}

}  // namespace esf
