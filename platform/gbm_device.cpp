#include "platform/gbm_device.hpp"

namespace esf {

Result<std::unique_ptr<GbmDevice>> GbmDevice::create(OpenedDrmNode node) {
  gbm_device* gbm = gbm_create_device(node.fd.get());
  if (!gbm) return fail(ErrorCode::kGpu, "gbm_create_device failed on '", node.node.path, "'");
  return std::unique_ptr<GbmDevice>(new GbmDevice(std::move(node), gbm));
}

GbmDevice::~GbmDevice() {
  gbm_device_destroy(gbm_);
}

}  // namespace esf
