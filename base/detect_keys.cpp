// The detectors' text (esframe/detectors.hpp's DetectConfig), for every client: the CLI's
// --detect, the Python module's detect="...", parseDetectConfig.
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/api_guard.hpp"
#include "esframe/detectors.hpp"

namespace esf {
namespace {

// One key of a detector: ffmpeg's name, range and type (float keys are stored as float, as
// ffmpeg's AV_OPT_TYPE_FLOAT stores them).
struct DetectKey {
  const char* name;
  double min, max;
  bool integer;
  float* float_field;
  int* int_field;
};

Status setKey(std::string_view what, const std::string& detector, const DetectKey& key,
              const std::string& value) {
  const std::string item = std::string(what) + ": " + detector + " " + key.name + "=" + value;
  char* end = nullptr;
  errno = 0;
  const double v = key.integer ? double(std::strtoll(value.c_str(), &end, 10))
                               : std::strtod(value.c_str(), &end);
  if (value.empty() || !end || *end != '\0' || errno != 0 || !std::isfinite(v))
    return fail(ErrorCode::kInvalidArgument, item, ": not ",
                key.integer ? "an integer" : "a finite number");
  if (v < key.min || v > key.max)
    return fail(ErrorCode::kInvalidArgument, item, ": out of range ", std::to_string(key.min), "..",
                std::to_string(key.max));
  if (key.integer)
    *key.int_field = int(v);
  else
    *key.float_field = float(v);
  return Status::success();
}

std::vector<DetectKey> cropKeys(CropDetectConfig& c) {
  return {{"limit", 0, 65535, false, &c.limit, nullptr},
          {"round", 0, INT_MAX, true, nullptr, &c.round},
          {"reset", 0, INT_MAX, true, nullptr, &c.reset},
          {"reset_count", 0, INT_MAX, true, nullptr, &c.reset},
          {"skip", 0, INT_MAX, true, nullptr, &c.skip},
          {"max_outliers", 0, INT_MAX, true, nullptr, &c.max_outliers}};
}
std::vector<DetectKey> blurKeys(BlurDetectConfig& c) {
  return {{"high", 0, 1, false, &c.high, nullptr},
          {"low", 0, 1, false, &c.low, nullptr},
          {"radius", 1, 100, true, nullptr, &c.radius},
          {"block_pct", 1, 100, true, nullptr, &c.block_pct},
          {"block_width", -1, INT_MAX, true, nullptr, &c.block_width},
          {"block_height", -1, INT_MAX, true, nullptr, &c.block_height},
          {"planes", 0, 15, true, nullptr, &c.planes}};
}
std::vector<DetectKey> blockKeys(BlockDetectConfig& c) {
  return {{"period_min", 2, 32, true, nullptr, &c.period_min},
          {"period_max", 2, 64, true, nullptr, &c.period_max},
          {"planes", 0, 15, true, nullptr, &c.planes}};
}

Result<DetectConfig> parseDetect(std::string_view text, std::string_view what) {
  DetectConfig d;
  std::string detector;  // the last name given: its keys follow it
  std::vector<DetectKey> keys;
  for (size_t at = 0; at <= text.size() && !text.empty();) {
    size_t comma = text.find(',', at);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string item(text.substr(at, comma - at));
    at = comma + 1;
    const size_t equals = item.find('=');
    if (equals == std::string::npos) {
      const bool again =
          (item == "crop" && d.crop) || (item == "blur" && d.blur) || (item == "block" && d.block);
      if (again) return fail(ErrorCode::kInvalidArgument, what, ": ", item, " given twice");
      if (item == "crop")
        keys = cropKeys(d.crop.emplace());
      else if (item == "blur")
        keys = blurKeys(d.blur.emplace());
      else if (item == "block")
        keys = blockKeys(d.block.emplace());
      else
        return fail(ErrorCode::kInvalidArgument, what, ": '", item,
                    "' is not a detector (crop, blur or block) nor KEY=VALUE");
      detector = item;
      continue;
    }
    const std::string key = item.substr(0, equals), value = item.substr(equals + 1);
    if (detector.empty())
      return fail(ErrorCode::kInvalidArgument, what, ": ", item,
                  ": name the detector (crop, blur or block) before its keys");
    const DetectKey* found = nullptr;
    for (const DetectKey& k : keys)
      if (key == k.name) found = &k;
    if (!found) {
      std::string known;
      for (const DetectKey& k : keys) known += std::string(known.empty() ? "" : ", ") + k.name;
      return fail(ErrorCode::kInvalidArgument, what, ": ", detector, " has no key '", key, "' (",
                  known, ")");
    }
    if (Status s = setKey(what, detector, *found, value); !s) return s.error();
  }
  return d;
}

}  // namespace

Result<DetectConfig> parseDetectConfig(std::string_view text, std::string_view what) {
  return guard("parseDetectConfig", [&] { return parseDetect(text, what); });
}

}  // namespace esf
