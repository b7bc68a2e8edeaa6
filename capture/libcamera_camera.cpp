#include "capture/libcamera_camera.hpp"

#include <libcamera/property_ids.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace esf {

Result<std::shared_ptr<libcamera::CameraManager>> sharedCameraManager() {
  static std::mutex mutex;
  static std::weak_ptr<libcamera::CameraManager> current;
  std::lock_guard lock(mutex);
  if (auto manager = current.lock()) return manager;
  // Read once, when libcamera's logger starts; a user's own setting wins.
  ::setenv("LIBCAMERA_LOG_LEVELS", "*:FATAL", /*overwrite=*/0);
  auto manager = std::shared_ptr<libcamera::CameraManager>(new libcamera::CameraManager(),
                                                           [](libcamera::CameraManager* m) {
                                                             m->stop();
                                                             delete m;
                                                           });
  if (const int rc = manager->start(); rc != 0)
    return fail(ErrorCode::kIo, "libcamera: cannot start the camera manager: ", std::strerror(-rc));
  current = manager;
  return manager;
}

Result<std::shared_ptr<libcamera::Camera>> findLibcameraCamera(libcamera::CameraManager& manager,
                                                               const std::string& id) {
  const auto cameras = manager.cameras();
  if (cameras.empty())
    return fail(ErrorCode::kNotFound,
                "libcamera: no cameras (libcamera lists only devices udev has initialised, "
                "and its pipeline handlers need their IPA modules: libcamera-ipa)");
  if (id.empty()) return cameras.front();
  if (auto camera = manager.get(id)) return camera;
  std::string known;
  for (const auto& c : cameras) known += (known.empty() ? "'" : ", '") + c->id() + "'";
  return fail(ErrorCode::kNotFound, "libcamera:", id, ": no such camera (there are ", known, ")");
}

std::string libcameraCameraModel(const libcamera::Camera& camera) {
  const auto model = camera.properties().get(libcamera::properties::Model);
  return model ? *model : camera.id();
}

}  // namespace esf
