// The HTTP sink in a build without libmicrohttpd or libturbojpeg (ESFRAME_HTTP=OFF, or AUTO
// without them).
#include "base/shared_module.hpp"
#include "core/outputs/http_output.hpp"

namespace esf {

Result<std::unique_ptr<FrameSink>> openHttpOutput(const HttpSinkOptions& options) {
  const Status unsupported =
      moduleNotBuilt("HTTP", "libmicrohttpd-dev and libturbojpeg0-dev", "ESFRAME_HTTP");
  return fail(unsupported.error().code, "HTTP sink on port ", std::to_string(options.port), ": ",
              unsupported.error().message);
}

}  // namespace esf
