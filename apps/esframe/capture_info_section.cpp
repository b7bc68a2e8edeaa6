// The capture section of `esframe info`: V4L2 capture devices with their formats, frame sizes,
// frame intervals and controls (capture/v4l2_info.hpp).
#include "apps/esframe/commands.hpp"
#include "capture/v4l2_info.hpp"

namespace esf::cli {

InfoSection captureInfoSection() {
  return InfoSection{"capture_devices",
                     [](const GlobalOptions&) { return describeCaptureDevices(); },
                     [](const nlohmann::json& j) { return captureDevicesText(j); }};
}

}  // namespace esf::cli
