#pragma once
// A DRM card opened for atomic modesetting: its connectors, CRTCs and planes with their property
// tables, and a GBM device on the same fd for scanout buffers. The card is chosen by path or
// kernel driver name. When the GL context's GBM device already sits on the same card, its fd is
// reused: the kernel makes the first opener of a card DRM master, and GEM handles are per fd.
#include <gbm.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "platform/drm_device.hpp"
#include "platform/drm_objects.hpp"
#include "platform/gbm_device.hpp"
#include "platform/kms_properties.hpp"

namespace esf {

struct KmsPlane {
  uint32_t id = 0;
  uint64_t type = 0;            // DRM_PLANE_TYPE_OVERLAY / _PRIMARY / _CURSOR
  uint32_t possible_crtcs = 0;  // bit i = the CRTC at index i
  std::vector<uint32_t> formats;
  KmsPropertyTable props;
};

struct KmsCrtc {
  uint32_t id = 0;
  int index = 0;
  KmsPropertyTable props;
};

struct KmsConnector {
  uint32_t id = 0;
  std::string name;  // "Virtual-1", "HDMI-A-1": type name and type id, as the kernel logs them
  bool connected = false;
  uint32_t possible_crtcs = 0;  // union over its encoders
  std::vector<drmModeModeInfo> modes;
  KmsPropertyTable props;
};

const char* planeTypeName(uint64_t type);

class KmsDevice {
 public:
  // `spec`: a card path or a driver name; empty = the GL context's card if it has one, else the
  // first card with connectors. `gl_gbm` may be null. Fails with one line when the card is held
  // by another DRM master, has no atomic modesetting, or has no connectors.
  static Result<std::unique_ptr<KmsDevice>> open(const std::string& spec, GbmDevice* gl_gbm);
  KmsDevice(const KmsDevice&) = delete;
  KmsDevice& operator=(const KmsDevice&) = delete;
  ~KmsDevice();

  int fd() const { return fd_; }
  gbm_device* gbm() const { return gbm_; }
  const DrmNode& node() const { return node_; }
  bool sharesGlDevice() const { return own_gbm_ == nullptr; }

  const std::vector<KmsConnector>& connectors() const { return connectors_; }
  const std::vector<KmsCrtc>& crtcs() const { return crtcs_; }
  const std::vector<KmsPlane>& planes() const { return planes_; }
  // Reads every property table again (after another client changed the state).
  Status refresh();

 private:
  KmsDevice() = default;
  Status enumerate();

  DrmNode node_;
  std::unique_ptr<GbmDevice> own_gbm_;  // null when the GL context's device is reused
  int fd_ = -1;                         // owned by own_gbm_ or by the GL context's GbmDevice
  gbm_device* gbm_ = nullptr;
  std::vector<KmsConnector> connectors_;
  std::vector<KmsCrtc> crtcs_;
  std::vector<KmsPlane> planes_;
};

}  // namespace esf
