// The libcamera source in a build without libcamera (-DESFRAME_LIBCAMERA=OFF, or AUTO where
// pkg-config found no libcamera): every use says so.
#include "base/shared_module.hpp"
#include "capture/libcamera_source.hpp"

namespace esf {

bool libcameraSupportBuilt() {
  return false;
}

Status loadLibcameraSupport() {
  return moduleNotBuilt("libcamera", "libcamera-dev", "ESFRAME_LIBCAMERA");
}

Result<std::unique_ptr<FrameSource>> openLibcameraSource(const std::string& spec,
                                                         const SourceOptions&) {
  const Status unsupported = loadLibcameraSupport();
  return fail(unsupported.error().code, spec, ": ", unsupported.error().message);
}

nlohmann::json describeLibcameraCameras() {
  return nlohmann::json::object({{"error", "libcamera support not built"}});
}

std::string libcameraCamerasText(const nlohmann::json&) {
  return "libcamera cameras: libcamera support not built\n";
}

}  // namespace esf
