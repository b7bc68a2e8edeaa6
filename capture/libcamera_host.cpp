// The module's side of LibcameraHost (libcamera_module.hpp), compiled into
// libesframe-libcamera.so only: the libesframe functions the module calls are defined here, each
// a call through the table its loader handed to esf_libcamera_module_v3. A static libesframe
// links the module's code in and binds these calls directly.
#include "capture/libcamera_module.hpp"
#include "capture/libcamera_source.hpp"

namespace esf {

using libcamera_module::g_host;

void logLine(LogLevel level, std::string_view message) {
  g_host->log_line(level, message);
}
const char* formatName(PixelFormat format) {
  return g_host->format_name(format);
}
bool isCompressed(PixelFormat format) {
  return g_host->is_compressed(format);
}
uint32_t drmFourcc(PixelFormat format) {
  return g_host->drm_fourcc(format);
}
std::optional<PixelFormat> fromDrmFourcc(uint32_t fourcc) {
  return g_host->from_drm_fourcc(fourcc);
}
Result<std::vector<PlaneSlice>> v4l2PlaneSlices(PixelFormat format, int height,
                                                int bytes_per_line) {
  return g_host->v4l2_plane_slices(format, height, bytes_per_line);
}
std::string colorimetryName(const Colorimetry& c) {
  return g_host->colorimetry_name(c);
}
Result<std::string> libcameraCameraId(const std::string& spec) {
  return g_host->camera_id(spec);
}

}  // namespace esf
