#include "apps/esframe/auto_exposure_option.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "esframe/text_parse.hpp"

namespace esf::cli {
namespace {

constexpr std::string_view kWhat = "--auto-exposure";

Result<double> parseReal(const std::string& key, const std::string& value) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || !end || *end != '\0' || errno != 0 || !std::isfinite(v))
    return fail(ErrorCode::kInvalidArgument, kWhat, ": ", key, "=", value, ": not a finite number");
  return v;
}

}  // namespace

Result<AutoExposureOptions> parseAutoExposureOption(const std::string& text) {
  AutoExposureOptions o;
  if (text.empty()) return o;
  const KeyValueListRules rules{{"metric", "target", "band", "damping", "settle", "control"}, {}};
  Result<std::vector<KeyValue>> items = parseKeyValueList(text, kWhat, rules);
  if (!items) return items.error();
  bool target_given = false, band_given = false;
  for (const auto& [key, value] : *items) {
    if (key == "metric") {
      if (value != "msv" && value != "mean")
        return fail(ErrorCode::kInvalidArgument, kWhat, ": metric=", value,
                    ": expected msv or mean");
      o.metric = value == "msv" ? ExposureMetric::kMsv : ExposureMetric::kMean;
    } else if (key == "control") {
      if (value.empty())
        return fail(ErrorCode::kInvalidArgument, kWhat, ": control= needs a control name");
      o.control = value;
    } else if (key == "settle") {
      Result<uint64_t> n = parseUnsigned(value, std::string(kWhat) + ": settle", 0, 1000);
      if (!n) return n.error();
      o.settle = int(*n);
    } else {
      Result<double> v = parseReal(key, value);
      if (!v) return v.error();
      if (key == "damping" && !(*v > 0 && *v <= 1))
        return fail(ErrorCode::kInvalidArgument, kWhat, ": damping=", value, ": must be in (0, 1]");
      if (key == "band" && *v < 0)
        return fail(ErrorCode::kInvalidArgument, kWhat, ": band=", value, ": must be >= 0");
      if (key == "target") o.target = *v, target_given = true;
      if (key == "band") o.band = *v, band_given = true;
      if (key == "damping") o.damping = *v;
    }
  }
  if (o.metric == ExposureMetric::kMean) {
    if (!target_given) o.target = 118;
    if (!band_given) o.band = 8;
  }
  const double lo = o.metric == ExposureMetric::kMsv ? 1 : 0;
  const double hi = o.metric == ExposureMetric::kMsv ? 5 : 255;
  if (o.target < lo || o.target > hi)
    return fail(ErrorCode::kInvalidArgument, kWhat, ": target must be in [",
                std::to_string(int(lo)), ", ", std::to_string(int(hi)), "] for this metric");
  return o;
}

}  // namespace esf::cli
