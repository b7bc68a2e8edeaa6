// The module's side of HttpHost (http_server.hpp), compiled into libesframe-http.so only: the
// libesframe functions the server calls are defined here, each a call through the table its
// loader handed to esf_http_module_v1. A static libesframe links the module's code in and binds
// these calls directly.
#include "core/outputs/http_server.hpp"

namespace esf {

using http_module::g_host;

void logLine(LogLevel level, std::string_view message) {
  g_host->log_line(level, message);
}
ErrorCode errorCodeFromErrno(int err) {
  return g_host->error_code_from_errno(err);
}

}  // namespace esf
