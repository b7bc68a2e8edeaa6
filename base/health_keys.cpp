// The health keys (esframe/health.hpp's HealthConfig as KEY=VALUE text), for every client: the
// CLI's --health, the GStreamer element's health-options, parseHealthConfig.
#include "esframe/health.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/api_guard.hpp"
#include "esframe/settings.hpp"
#include "esframe/text_parse.hpp"

namespace esf {
namespace {

// A finite number; a setting that takes decibels also takes "-60dB" (10^(dB/20), as ffmpeg
// reads it). The range is the setting's (checkSetting).
Result<double> parseValue(std::string_view what, const HealthSetting& setting,
                          const std::string& value) {
  std::string digits = value;
  const bool db =
      setting.decibels && digits.size() > 2 && digits.compare(digits.size() - 2, 2, "dB") == 0;
  if (db) digits.resize(digits.size() - 2);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(digits.c_str(), &end);
  if (digits.empty() || !end || *end != '\0' || errno != 0 || !std::isfinite(v))
    return fail(ErrorCode::kInvalidArgument, what, ": ", setting.key, "=", value,
                ": not a finite number");
  if (db) v = std::pow(10.0, v / 20.0);
  const std::string item = std::string(what) + ": " + setting.key + "=" + value + ":";
  if (Status s = checkSetting(item, setting.type, setting.min, setting.max, v); !s)
    return s.error();
  return v;
}

// "X,Y,W,H[,X,Y,W,H...]": rectangles of the luma in pixels.
Result<std::vector<HealthRegion>> parseRois(std::string_view what, const std::string& value) {
  std::vector<uint64_t> numbers;
  for (size_t at = 0; at <= value.size();) {
    size_t comma = value.find(',', at);
    if (comma == std::string::npos) comma = value.size();
    // X and Y from 0, W and H from 1.
    const uint64_t min = numbers.size() % 4 < 2 ? 0 : 1;
    Result<uint64_t> n = parseUnsigned(std::string_view(value).substr(at, comma - at),
                                       std::string(what) + " roi", min, 65535);
    if (!n) return n.error();
    numbers.push_back(*n);
    at = comma + 1;
  }
  if (numbers.size() % 4 != 0)
    return fail(ErrorCode::kInvalidArgument, what, ": roi=", value,
                ": expected X,Y,W,H for each rectangle");
  std::vector<HealthRegion> rois;
  for (size_t i = 0; i < numbers.size(); i += 4)
    rois.push_back(
        {int(numbers[i]), int(numbers[i + 1]), int(numbers[i + 2]), int(numbers[i + 3])});
  return rois;
}

Result<HealthConfig> parseHealthKeys(std::string_view text, std::string_view what) {
  HealthConfig h;
  if (text.empty()) return h;
  KeyValueListRules rules{{"grid", "roi"}, {"roi"}};
  for (const HealthSetting& setting : healthSettings())
    if (*setting.key) rules.keys.push_back(setting.key);
  Result<std::vector<KeyValue>> items = parseKeyValueList(text, what, rules);
  if (!items) return items.error();
  for (const auto& [key, value] : *items) {
    if (key == "grid") {
      Result<ParsedSize> grid =
          parseSize(value, std::string(what) + " grid", kMaxHealthGridSide, "CxR (e.g. 4x3)");
      if (!grid) return grid.error();
      h.grid_columns = grid->width;
      h.grid_rows = grid->height;
      continue;
    }
    if (key == "roi") {
      Result<std::vector<HealthRegion>> rois = parseRois(what, value);
      if (!rois) return rois.error();
      h.rois = std::move(rois.value());
      continue;
    }
    for (const HealthSetting& setting : healthSettings()) {
      if (key != setting.key) continue;
      Result<double> v = parseValue(what, setting, value);
      if (!v) return v.error();
      setting.set(h, *v);
    }
  }
  return h;
}

}  // namespace

Result<HealthConfig> parseHealthConfig(std::string_view keys) {
  return guard("parseHealthConfig", [&] { return parseHealthKeys(keys, "health keys"); });
}

Result<HealthConfig> parseHealthConfig(std::string_view keys, std::string_view what) {
  return guard("parseHealthConfig", [&] { return parseHealthKeys(keys, what); });
}

}  // namespace esf
