// The module's side of NetworkHost (network_module.hpp), compiled into libesframe-network.so
// only: the libesframe functions the module calls, each a call through the table its loader
// handed to esf_network_module_v1.
#include "capture/network_module.hpp"

namespace esf {

void logLine(LogLevel level, std::string_view message) {
  network_module::g_host->log_line(level, message);
}

}  // namespace esf
