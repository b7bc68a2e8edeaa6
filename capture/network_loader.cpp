// The network source in a build with GStreamer: libesframe-network.so (capture/network_module.hpp)
// is loaded on first use, so a run without a network source never loads GStreamer. A static
// libesframe links the module's code in (ESF_MODULES_LINKED) and calls it directly.
#include "base/shared_module.hpp"
#include "capture/network_module.hpp"

namespace esf {

Result<const NetworkModule*> loadNetworkModule() {
  static const NetworkHost kHost{&logLine};
  static const Result<const NetworkModule*> module = loadOptionalModule(
      OptionalModule<NetworkModule, NetworkHost>{kNetworkModuleFile, kNetworkModuleEntry,
                                                 ESF_LINKED_ENTRY(esf_network_module_v1)},
      kHost);
  return module;
}

}  // namespace esf
