#pragma once
// What the libcamera source and `esframe info` share: the process's one CameraManager (libcamera
// allows one per process and aborts on a second) and finding a camera by id.
#include <libcamera/camera.h>
#include <libcamera/camera_manager.h>

#include <memory>
#include <string>

#include "esframe/base/result.hpp"

namespace esf {

// Started on first use, stopped when the last holder lets it go. libcamera's own log lines are
// limited to fatal ones unless LIBCAMERA_LOG_LEVELS says otherwise: esframe names failures itself.
Result<std::shared_ptr<libcamera::CameraManager>> sharedCameraManager();

// `id` empty: the first camera. The error lists the cameras there are.
Result<std::shared_ptr<libcamera::Camera>> findLibcameraCamera(libcamera::CameraManager& manager,
                                                               const std::string& id);

// "Sensor B" from the camera's Model property, or its id.
std::string libcameraCameraModel(const libcamera::Camera& camera);

}  // namespace esf
