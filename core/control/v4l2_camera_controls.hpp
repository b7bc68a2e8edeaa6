#pragma once
// CameraControls on a V4L2 device node, through capture's control code (the --ctrl path). It
// opens its own fd: V4L2 controls may be set from any open file of the device, so the loop
// needs nothing from the streaming source.
#include <string>

#include "core/control/exposure_loop.hpp"
#include "esframe/base/unique_fd.hpp"

namespace esf {

class V4l2CameraControls : public CameraControls {
 public:
  static Result<std::unique_ptr<V4l2CameraControls>> open(const std::string& device);
  Result<ControlRange> query(const std::string& name) override;
  Status set(const std::string& name, int64_t value) override;

 private:
  V4l2CameraControls(std::string device, UniqueFd fd)
      : device_(std::move(device)), fd_(std::move(fd)) {}
  std::string device_;
  UniqueFd fd_;
};

}  // namespace esf
