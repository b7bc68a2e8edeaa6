#include "core/control/v4l2_camera_controls.hpp"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include "capture/v4l2_device.hpp"

namespace esf {

Result<std::unique_ptr<V4l2CameraControls>> V4l2CameraControls::open(const std::string& device) {
  UniqueFd fd(::open(device.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid())
    return fail(errorCodeFromErrno(errno), "auto-exposure: cannot open ", device, ": ",
                std::strerror(errno));
  return std::unique_ptr<V4l2CameraControls>(new V4l2CameraControls(device, std::move(fd)));
}

Result<ControlRange> V4l2CameraControls::query(const std::string& name) {
  for (const V4l2ControlDesc& c : enumerateControls(fd_.get())) {
    if (c.name != name) continue;
    if (!c.has_value || (c.type != "int" && c.type != "bool" && c.type != "menu"))
      return fail(ErrorCode::kUnsupported, device_, ": control '", name,
                  "' is not an integer control with a value");
    return ControlRange{c.minimum, c.maximum, c.step, c.value};
  }
  return fail(ErrorCode::kNotFound, device_, ": no control named '", name, "'");
}

Status V4l2CameraControls::set(const std::string& name, int64_t value) {
  return setControl(fd_.get(), device_, name, std::to_string(value));
}

}  // namespace esf
