#include "capture/libcamera_controls.hpp"

#include <libcamera/control_ids.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace esf {
namespace {

const char* typeName(libcamera::ControlType type) {
  switch (type) {
    case libcamera::ControlTypeBool:
      return "bool";
    case libcamera::ControlTypeByte:
      return "byte";
    case libcamera::ControlTypeInteger32:
      return "int32";
    case libcamera::ControlTypeInteger64:
      return "int64";
    case libcamera::ControlTypeFloat:
      return "float";
    default:
      return "array, string or geometry";
  }
}

Result<int64_t> parseInteger(const std::string& text, int64_t lo, int64_t hi) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 0);
  if (text.empty() || *end != '\0' || errno != 0 || v < lo || v > hi)
    return fail(ErrorCode::kInvalidArgument, "an integer in [", std::to_string(lo), ", ",
                std::to_string(hi), "]");
  return int64_t(v);
}

Result<float> parseFloat(const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const float v = std::strtof(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(v))
    return fail(ErrorCode::kInvalidArgument, "a finite number");
  return v;
}

// The value as a double for range checks; nullopt for types without an order.
std::optional<double> numeric(const libcamera::ControlValue& v) {
  if (v.isNone() || v.isArray()) return std::nullopt;
  switch (v.type()) {
    case libcamera::ControlTypeByte:
      return double(v.get<uint8_t>());
    case libcamera::ControlTypeInteger32:
      return double(v.get<int32_t>());
    case libcamera::ControlTypeInteger64:
      return double(v.get<int64_t>());
    case libcamera::ControlTypeFloat:
      return double(v.get<float>());
    default:
      return std::nullopt;
  }
}

// libcamera 0.0.3's ControlId does not say whether a control holds an array (its type is the
// element's): these are the array controls of control_ids.h.
bool isArrayControl(const libcamera::ControlId& id) {
  namespace c = libcamera::controls;
  const libcamera::ControlId* const arrays[] = {&c::ColourGains, &c::SensorBlackLevels,
                                                &c::ColourCorrectionMatrix, &c::FrameDurationLimits,
                                                &c::AfWindows};
  for (const libcamera::ControlId* array : arrays)
    if (id.id() == array->id()) return true;
  return false;
}

Result<libcamera::ControlValue> parseByType(libcamera::ControlType type, const std::string& text) {
  switch (type) {
    case libcamera::ControlTypeBool:
      if (text == "1" || text == "true") return libcamera::ControlValue(true);
      if (text == "0" || text == "false") return libcamera::ControlValue(false);
      return fail(ErrorCode::kInvalidArgument, "0, 1, true or false");
    case libcamera::ControlTypeByte: {
      auto v = parseInteger(text, 0, 255);
      if (!v) return v.error();
      return libcamera::ControlValue(uint8_t(*v));
    }
    case libcamera::ControlTypeInteger32: {
      auto v = parseInteger(text, std::numeric_limits<int32_t>::min(),
                            std::numeric_limits<int32_t>::max());
      if (!v) return v.error();
      return libcamera::ControlValue(int32_t(*v));
    }
    case libcamera::ControlTypeInteger64: {
      auto v = parseInteger(text, std::numeric_limits<int64_t>::min(),
                            std::numeric_limits<int64_t>::max());
      if (!v) return v.error();
      return libcamera::ControlValue(*v);
    }
    case libcamera::ControlTypeFloat: {
      auto v = parseFloat(text);
      if (!v) return v.error();
      return libcamera::ControlValue(*v);
    }
    default:
      return fail(ErrorCode::kUnsupported, "a type that cannot be set");
  }
}

}  // namespace

Result<libcamera::ControlValue> parseLibcameraControlValue(const libcamera::ControlId& id,
                                                           const libcamera::ControlInfo& info,
                                                           const std::string& text) {
  if (isArrayControl(id))
    return fail(
        ErrorCode::kUnsupported, "control ", id.name(),
        " holds an array: only single values can be set",
        &id == &libcamera::controls::FrameDurationLimits ? " (set the source's frame rate)" : "");
  Result<libcamera::ControlValue> value = parseByType(id.type(), text);
  if (!value)
    return fail(value.error().code, "control ", id.name(), " (", typeName(id.type()),
                "): expected ", value.error().message, ", got '", text, "'");
  const auto v = numeric(*value), lo = numeric(info.min()), hi = numeric(info.max());
  if (v && lo && hi && *lo <= *hi && (*v < *lo || *v > *hi))
    return fail(ErrorCode::kInvalidArgument, "control ", id.name(), ": ", text, " is outside [",
                info.min().toString(), ", ", info.max().toString(), "]");
  return value;
}

Result<std::pair<const libcamera::ControlId*, libcamera::ControlValue>> resolveLibcameraControl(
    const libcamera::ControlInfoMap& controls, const std::string& camera, const std::string& name,
    const std::string& value) {
  std::string known;
  for (const auto& [id, info] : controls) {
    if (id->name() != name) {
      known += (known.empty() ? "" : ", ") + id->name();
      continue;
    }
    auto parsed = parseLibcameraControlValue(*id, info, value);
    if (!parsed) return fail(parsed.error().code, camera, ": ", parsed.error().message);
    return std::make_pair(id, std::move(*parsed));
  }
  return fail(ErrorCode::kNotFound, camera, ": no control '", name,
              "' (it has: ", known.empty() ? "none" : known, ")");
}

int64_t frameDurationMicroseconds(double fps) {
  return std::llround(1e6 / fps);
}

}  // namespace esf
