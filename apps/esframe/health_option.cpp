#include "apps/esframe/health_option.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "base/text_parse.hpp"

namespace esf::cli {
namespace {

constexpr std::string_view kHealthOption = "--health";

// A finite number in [lo, hi]; `decibels` also takes "-60dB" (10^(dB/20), as ffmpeg reads it).
Result<double> parseValue(const std::string& key, const std::string& value, double lo, double hi,
                          bool decibels = false) {
  std::string digits = value;
  const bool db = decibels && digits.size() > 2 && digits.compare(digits.size() - 2, 2, "dB") == 0;
  if (db) digits.resize(digits.size() - 2);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(digits.c_str(), &end);
  if (digits.empty() || !end || *end != '\0' || errno != 0 || !std::isfinite(v))
    return fail(ErrorCode::kInvalidArgument, kHealthOption, ": ", key, "=", value,
                ": not a number");
  if (db) v = std::pow(10.0, v / 20.0);
  if (!(v >= lo && v <= hi)) {
    char range[64];
    std::snprintf(range, sizeof range, "[%g, %g]", lo, hi);
    return fail(ErrorCode::kInvalidArgument, kHealthOption, ": ", key, "=", value, ": must be in ",
                range);
  }
  return v;
}

}  // namespace

Result<HealthConfig> parseHealthOption(const std::string& text) {
  HealthConfig h;
  if (text.empty()) return h;
  const KeyValueListRules rules{
      {"pix_th", "pic_th", "black_min_duration", "noise", "freeze_duration", "threshold"}, {}};
  Result<std::vector<KeyValue>> items = parseKeyValueList(text, kHealthOption, rules);
  if (!items) return items.error();
  for (const auto& [key, value] : *items) {
    Result<double> v = key == "noise"         ? parseValue(key, value, 0, 1, true)
                       : key == "threshold"   ? parseValue(key, value, 0, 100)
                       : key.ends_with("_th") ? parseValue(key, value, 0, 1)
                                              : parseValue(key, value, 0, 86400);
    if (!v) return v.error();
    if (key == "pix_th") h.pixel_black_th = *v;
    if (key == "pic_th") h.picture_black_ratio_th = *v;
    if (key == "black_min_duration") h.black_min_duration = *v;
    if (key == "noise") h.freeze_noise = *v;
    if (key == "freeze_duration") h.freeze_duration = *v;
    if (key == "threshold") h.scene_threshold = *v;
  }
  return h;
}

}  // namespace esf::cli
