// The public listings and libcamera spec checks (esframe/capture_devices.hpp) over the capture
// layer's own.
#include "esframe/capture_devices.hpp"

#include "base/api_guard.hpp"
#include "capture/libcamera_source.hpp"
#include "capture/v4l2_info.hpp"

namespace esf {

Result<DeviceListing> listV4l2Devices() {
  return guard("listV4l2Devices", []() -> Result<DeviceListing> {
    const nlohmann::json devices = describeCaptureDevices();
    return DeviceListing{devices.dump(), captureDevicesText(devices)};
  });
}

bool libcameraBuilt() {
  return libcameraSupportBuilt();
}

Result<DeviceListing> listLibcameraCameras() {
  return guard("listLibcameraCameras", []() -> Result<DeviceListing> {
    const nlohmann::json cameras = describeLibcameraCameras();
    return DeviceListing{cameras.dump(), libcameraCamerasText(cameras)};
  });
}

bool isLibcameraSourceSpec(const std::string& spec) {
  return isLibcameraSpec(spec);
}

Status libcameraUsable() {
  return guard("libcameraUsable", [] { return loadLibcameraSupport(); });
}

Result<std::string> libcameraSourceCameraId(const std::string& spec) {
  return guard("libcameraSourceCameraId", [&] { return libcameraCameraId(spec); });
}

}  // namespace esf
