// The capture section of `esframe info`: V4L2 capture devices with their formats, frame sizes,
// frame intervals and controls (esframe/capture_devices.hpp).
#include "apps/esframe/commands.hpp"
#include "esframe/capture_devices.hpp"

namespace esf::cli {

InfoSection captureInfoSection() {
  return listingSection("capture_devices", [](const GlobalOptions&) { return listV4l2Devices(); });
}

}  // namespace esf::cli
