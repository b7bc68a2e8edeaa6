// The health keys (esframe/health.hpp's HealthConfig as KEY=VALUE text), for every client: the
// CLI's --health, the GStreamer element's health-options, parseHealthConfig.
#include "core/stats/health_keys.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/api_guard.hpp"
#include "base/text_parse.hpp"
#include "core/stats/health_regions.hpp"

namespace esf {
namespace {

// A finite number in [lo, hi]; `decibels` also takes "-60dB" (10^(dB/20), as ffmpeg reads it).
Result<double> parseValue(std::string_view what, const std::string& key, const std::string& value,
                          double lo, double hi, bool decibels = false) {
  std::string digits = value;
  const bool db = decibels && digits.size() > 2 && digits.compare(digits.size() - 2, 2, "dB") == 0;
  if (db) digits.resize(digits.size() - 2);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(digits.c_str(), &end);
  if (digits.empty() || !end || *end != '\0' || errno != 0 || !std::isfinite(v))
    return fail(ErrorCode::kInvalidArgument, what, ": ", key, "=", value, ": not a finite number");
  if (db) v = std::pow(10.0, v / 20.0);
  if (!(v >= lo && v <= hi)) {
    char range[64];
    std::snprintf(range, sizeof range, "[%g, %g]", lo, hi);
    return fail(ErrorCode::kInvalidArgument, what, ": ", key, "=", value, ": must be in ", range);
  }
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

}  // namespace

Result<HealthConfig> parseHealthKeys(std::string_view text, std::string_view what) {
  HealthConfig h;
  if (text.empty()) return h;
  const KeyValueListRules rules{
      {"pix_th", "pic_th", "black_min_duration", "noise", "freeze_duration", "threshold", "grid",
       "roi", "change", "flat", "detail_loss", "covered", "covered_min_duration"},
      {"roi"}};
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
    if (key == "change") {
      Result<uint64_t> level = parseUnsigned(value, std::string(what) + " change", 0, 255);
      if (!level) return level.error();
      h.change_level = uint32_t(*level);
      continue;
    }
    Result<double> v = key == "noise"       ? parseValue(what, key, value, 0, 1, true)
                       : key == "threshold" ? parseValue(what, key, value, 0, 100)
                       : key.ends_with("_th") || key == "covered" || key == "detail_loss"
                           ? parseValue(what, key, value, 0, 1)
                       : key == "flat" ? parseValue(what, key, value, 0, 1e9)
                                       : parseValue(what, key, value, 0, 86400);
    if (!v) return v.error();
    if (key == "pix_th") h.pixel_black_th = *v;
    if (key == "pic_th") h.picture_black_ratio_th = *v;
    if (key == "black_min_duration") h.black_min_duration = *v;
    if (key == "noise") h.freeze_noise = *v;
    if (key == "freeze_duration") h.freeze_duration = *v;
    if (key == "threshold") h.scene_threshold = *v;
    if (key == "flat") h.flat_tenengrad = *v;
    if (key == "detail_loss") h.detail_loss = *v;
    if (key == "covered") h.covered_ratio = *v;
    if (key == "covered_min_duration") h.covered_min_duration = *v;
  }
  return h;
}

Result<HealthConfig> parseHealthConfig(std::string_view keys) {
  return guard("parseHealthConfig", [&] { return parseHealthKeys(keys, "health keys"); });
}

}  // namespace esf
