#include "capture/v4l2_payload.hpp"

#include <algorithm>

#include "base/pixel_format.hpp"

namespace esf {

std::optional<std::string> v4l2ShortPayload(
    const V4l2StreamFormat& fmt, PixelFormat format,
    const std::array<uint32_t, kMaxMemoryPlanes>& bytesused) {
  if (isCompressed(format)) return std::nullopt;
  const PixelFormatInfo& info = pixelFormatInfo(format);
  std::array<uint64_t, kMaxMemoryPlanes> needed{};
  if (fmt.memory_planes > 1) {
    for (int i = 0; i < fmt.memory_planes && i < info.plane_count; ++i)
      needed[size_t(i)] =
          uint64_t(fmt.bytesperline[size_t(i)]) * uint64_t(planeRows(info, i, int(fmt.height)));
  } else {
    // Negotiation checked this layout (checkV4l2FrameLimits); a failure here is no whole frame.
    const Result<std::vector<PlaneSlice>> slices =
        v4l2PlaneSlices(format, int(fmt.height), int(fmt.bytesperline[0]));
    if (!slices) return slices.error().message;
    for (const PlaneSlice& slice : slices.value())
      needed[0] = std::max<uint64_t>(needed[0], uint64_t(slice.offset) + slice.size);
  }
  for (int i = 0; i < fmt.memory_planes && i < kMaxMemoryPlanes; ++i)
    if (bytesused[size_t(i)] < needed[size_t(i)])
      return "plane " + std::to_string(i) + " holds " + std::to_string(bytesused[size_t(i)]) +
             " of " + std::to_string(needed[size_t(i)]) + " bytes";
  return std::nullopt;
}

}  // namespace esf
