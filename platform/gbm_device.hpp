#pragma once
// Owner of a gbm_device and of the DRM fd it was created on; GbmBo owns its buffer objects.
#include <gbm.h>

#include <memory>

#include "platform/drm_device.hpp"

namespace esf {

// Owner of a gbm_bo (gbm_bo_create / gbm_bo_destroy).
struct GbmBoDestroyer {
  void operator()(gbm_bo* bo) const { gbm_bo_destroy(bo); }
};
using GbmBo = std::unique_ptr<gbm_bo, GbmBoDestroyer>;

class GbmDevice {
 public:
  static Result<std::unique_ptr<GbmDevice>> create(OpenedDrmNode node);
  ~GbmDevice();
  GbmDevice(const GbmDevice&) = delete;
  GbmDevice& operator=(const GbmDevice&) = delete;

  gbm_device* get() const { return gbm_; }
  int fd() const { return node_.fd.get(); }
  const DrmNode& node() const { return node_.node; }

 private:
  GbmDevice(OpenedDrmNode node, gbm_device* gbm) : node_(std::move(node)), gbm_(gbm) {}
  OpenedDrmNode node_;  // outlives gbm_: destroyed after it
  gbm_device* gbm_;
};

}  // namespace esf
