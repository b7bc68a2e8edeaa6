// The network source in a build without GStreamer (-DESFRAME_NETWORK=OFF, or AUTO where
// pkg-config found no GStreamer): every use says so.
#include "base/shared_module.hpp"
#include "capture/network_module.hpp"

namespace esf {

Result<const NetworkModule*> loadNetworkModule() {
  return moduleNotBuilt("network source (GStreamer)",
                        "libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev", "ESFRAME_NETWORK")
      .error();
}

}  // namespace esf
