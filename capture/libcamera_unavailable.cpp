// The libcamera source in a build without libcamera (-DESFRAME_LIBCAMERA=OFF, or AUTO where
// pkg-config found no libcamera): every use says so.
#include "capture/libcamera_source.hpp"

namespace esf {

bool libcameraSupportBuilt() {
  return false;
}

Result<std::unique_ptr<FrameSource>> openLibcameraSource(const std::string& spec,
                                                         const SourceOptions&) {
  return fail(ErrorCode::kUnsupported, spec,
              ": libcamera support not built (install libcamera-dev and configure with "
              "-DESFRAME_LIBCAMERA=ON)");
}

nlohmann::json describeLibcameraCameras() {
  return nlohmann::json::object({{"error", "libcamera support not built"}});
}

std::string libcameraCamerasText(const nlohmann::json&) {
  return "libcamera cameras: libcamera support not built\n";
}

}  // namespace esf
