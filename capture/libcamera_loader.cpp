// The libcamera source in a build with libcamera: libesframe-libcamera.so (capture/
// libcamera_module.hpp) is loaded on first use, so a run without a libcamera camera never loads
// libcamera and the libraries it pulls in. A static libesframe links the module's code in
// (ESF_MODULES_LINKED) and calls it directly.
#include "base/shared_module.hpp"
#include "capture/libcamera_module.hpp"
#include "capture/libcamera_source.hpp"

namespace esf {
namespace {

// What the module calls of libesframe (LibcameraHost says why a table).
const LibcameraHost kHost{&logLine,       &formatName,      &isCompressed,    &drmFourcc,
                          &fromDrmFourcc, &v4l2PlaneSlices, &colorimetryName, &libcameraCameraId};

Result<const LibcameraModule*> libcameraModule() {
  static const Result<const LibcameraModule*> module = loadOptionalModule(
      OptionalModule<LibcameraModule, LibcameraHost>{kLibcameraModuleFile, kLibcameraModuleEntry,
                                                     ESF_LINKED_ENTRY(esf_libcamera_module_v3)},
      kHost);
  return module;
}

}  // namespace

bool libcameraSupportBuilt() {
  return true;
}

Status loadLibcameraSupport() {
  auto module = libcameraModule();
  if (!module) return module.error();
  return Status::success();
}

Result<std::unique_ptr<FrameSource>> openLibcameraSource(const std::string& spec,
                                                         const SourceOptions& options) {
  auto module = libcameraModule();
  if (!module) return fail(module.error().code, spec, ": ", module.error().message);
  return (*module)->open_source(spec, options);
}

nlohmann::json describeLibcameraCameras() {
  auto module = libcameraModule();
  if (!module) return nlohmann::json::object({{"error", module.error().message}});
  return (*module)->describe_cameras();
}

std::string libcameraCamerasText(const nlohmann::json& cameras) {
  auto module = libcameraModule();
  if (!module) return "libcamera cameras:\n  " + module.error().message + "\n";
  return (*module)->cameras_text(cameras);
}

}  // namespace esf
