// The libcamera source's spec grammar, built with or without libcamera.
#include "capture/libcamera_source.hpp"

namespace esf {

namespace {
constexpr const char kPrefix[] = "libcamera";
}

bool isLibcameraSpec(const std::string& spec) {
  return spec == kPrefix || spec.rfind(std::string(kPrefix) + ":", 0) == 0;
}

Result<std::string> libcameraCameraId(const std::string& spec) {
  if (!isLibcameraSpec(spec))
    return fail(ErrorCode::kInvalidArgument, "'", spec, "' is not a libcamera source");
  if (spec == kPrefix) return std::string();
  std::string id = spec.substr(sizeof(kPrefix));
  if (id.empty())
    return fail(ErrorCode::kInvalidArgument,
                "libcamera: expected a camera id after 'libcamera:' (esframe info lists them)");
  return id;
}

}  // namespace esf
