// The HTTP sink in a build without libmicrohttpd or libturbojpeg (ESFRAME_HTTP=OFF, or AUTO
// without them).
#include "core/outputs/http_output.hpp"

namespace esf {

Result<std::unique_ptr<FrameSink>> openHttpOutput(const HttpSinkOptions& options) {
  return fail(ErrorCode::kUnsupported, "HTTP sink on port ", std::to_string(options.port),
              ": this esframe was built without HTTP (libmicrohttpd-dev, libturbojpeg0-dev, "
              "ESFRAME_HTTP)");
}

}  // namespace esf
