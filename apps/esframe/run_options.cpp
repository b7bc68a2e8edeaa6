#include "apps/esframe/run_options.hpp"

#include <cerrno>
#include <cstdlib>

#include "esframe/capture_devices.hpp"
#include "esframe/settings.hpp"
#include "esframe/text_parse.hpp"

namespace esf::cli {
namespace {

// A whole decimal integer in [lo, hi], or an error naming `what`.
Result<int> parseInt(const std::string& what, const std::string& text, int lo, int hi) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0)
    return fail(ErrorCode::kInvalidArgument, what, " must be an integer, got '", text, "'");
  if (v < lo || v > hi)
    return fail(ErrorCode::kInvalidArgument, what, " must be in [", std::to_string(lo), ", ",
                std::to_string(hi), "], got ", text);
  return int(v);
}

}  // namespace

Status parseScopesOption(const std::string& text, ScopeOptions& scopes) {
  ScopeOptions out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string part = text.substr(start, comma - start);
    start = comma + 1;
    bool* flag = part == "waveform"      ? &out.waveform
                 : part == "parade"      ? &out.parade
                 : part == "vectorscope" ? &out.vectorscope
                                         : nullptr;
    if (flag) {
      if (*flag) return fail(ErrorCode::kInvalidArgument, "--scopes: '", part, "' given twice");
      *flag = true;
    } else if (part.starts_with("columns=")) {
      Result<int> columns = parseInt("--scopes: columns", part.substr(8), 1, kScopeMaxColumns);
      if (!columns) return columns.error();
      out.columns = columns.value();
    } else {
      return fail(ErrorCode::kInvalidArgument, "--scopes: unknown scope '", part,
                  "' (waveform, parade, vectorscope, columns=N)");
    }
  }
  if (!out.any())
    return fail(ErrorCode::kInvalidArgument,
                "--scopes: name at least one of waveform, parade, vectorscope");
  scopes = out;
  return Status::success();
}

Status parseHistogramOption(const std::string& text, HistogramConfig& h) {
  size_t start = 0;
  while (start < text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string part = text.substr(start, comma - start);
    start = comma + 1;
    const size_t eq = part.find('=');
    const std::string key = part.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : part.substr(eq + 1);
    if (eq == std::string::npos)
      return fail(ErrorCode::kInvalidArgument, "--histogram: expected KEY=VALUE, got '", part,
                  "' (bins, channels, strategy)");
    if (key == "bins") {
      Result<int> bins = parseInt("--histogram: bins", value, 1, 256);
      if (!bins) return bins.error();
      h.bins = bins.value();
    } else if (key == "channels") {
      if (Status s = validateChannels(value); !s)
        return fail(ErrorCode::kInvalidArgument, "--histogram: ", s.error().message);
      h.channels = value;
    } else if (key == "strategy") {
      h.strategy.reset();
      if (value != "auto") {
        Result<HistogramStrategy> s = parseHistogramStrategy(value);
        if (!s) return fail(ErrorCode::kInvalidArgument, "--histogram: ", s.error().message);
        h.strategy = s.value();
      }
    } else {
      return fail(ErrorCode::kInvalidArgument, "--histogram: unknown key '", key,
                  "' (bins, channels, strategy)");
    }
  }
  return Status::success();
}

Result<BlurConfig> parseBlurOption(const std::string& text) {
  BlurConfig b;
  const size_t colon = text.find(':');
  Result<int> taps = parseInt("--blur: taps", text.substr(0, colon), 1, 1 << 20);
  if (!taps) return taps.error();
  if (taps.value() % 2 == 0)
    return fail(ErrorCode::kInvalidArgument, "--blur: taps must be odd, got ",
                std::to_string(taps.value()),
                " (an even filter shifts the picture by half a pixel per pass)");
  b.taps = taps.value();
  if (colon != std::string::npos) {
    Result<int> it = parseInt("--blur: iterations", text.substr(colon + 1), 1, 100);
    if (!it) return it.error();
    b.iterations = it.value();
  }
  return b;
}

Result<Size> parseResizeOption(const std::string& text) {
  Result<ParsedSize> size = parseSize(text, "--resize");
  if (!size) return size.error();
  return Size{size->width, size->height};
}

Status checkSourceSpec(const std::string& spec) {
  if (!isLibcameraSourceSpec(spec)) return Status::success();
  if (Status support = libcameraUsable(); !support)
    return fail(support.error().code, "--source ", spec, ": ", support.error().message);
  Result<std::string> id = libcameraSourceCameraId(spec);
  if (!id) return fail(id.error().code, "--source: ", id.error().message);
  return Status::success();
}

// RawConfig's setting `field` (esframe/settings.hpp): its range.
static const RawSetting& rawSetting(std::string_view field) {
  for (const RawSetting& s : rawSettings())
    if (field == s.field) return s;
  std::abort();  // a field of RawConfig: the table has every one
}

Status parseRawOption(const std::string& text, RawConfig& raw) {
  constexpr const char* kKeys = " (black=N, white=N, wb=R,B with gains in 1/256: 256 = 1.0)";
  std::vector<std::string> parts;
  for (size_t start = 0; start <= text.size();) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    parts.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    const size_t eq = parts[i].find('=');
    if (eq == std::string::npos)
      return fail(ErrorCode::kInvalidArgument, "--raw: expected KEY=VALUE, got '", parts[i], "'",
                  kKeys);
    const std::string key = parts[i].substr(0, eq), value = parts[i].substr(eq + 1);
    if (key == "black" || key == "white") {
      const RawSetting& level = rawSetting(key == "black" ? "black" : "white");
      Result<int> v = parseInt("--raw: " + key, value, int(level.min), int(level.max));
      if (!v) return v.error();
      level.set(raw, v.value());
    } else if (key == "wb") {  // its value holds a comma: R, then B in the next part
      if (i + 1 >= parts.size())
        return fail(ErrorCode::kInvalidArgument, "--raw: wb needs two gains, R,B", kKeys);
      const RawSetting &red = rawSetting("gain_r"), &blue = rawSetting("gain_b");
      Result<int> r = parseInt("--raw: wb red gain", value, int(red.min), int(red.max));
      if (!r) return r.error();
      Result<int> b = parseInt("--raw: wb blue gain", parts[++i], int(blue.min), int(blue.max));
      if (!b) return b.error();
      red.set(raw, r.value());
      blue.set(raw, b.value());
    } else {
      return fail(ErrorCode::kInvalidArgument, "--raw: unknown key '", key, "'", kKeys);
    }
  }
  if (raw.white != 0 && raw.white <= raw.black)
    return fail(ErrorCode::kInvalidArgument, "--raw: white ", std::to_string(raw.white),
                " must be above black ", std::to_string(raw.black));
  return Status::success();
}

Status parseSignalstatsStat(const std::string& text, PipelineConfig& config) {
  config.signalstats = true;
  for (size_t at = 0; at <= text.size();) {
    size_t end = text.find_first_of("+,", at);
    if (end == std::string::npos) end = text.size();
    const std::string flag = text.substr(at, end - at);
    at = end + 1;
    if (flag == "tout")
      config.signalstats_tout = true;
    else if (flag == "vrep")
      config.signalstats_vrep = true;
    else if (flag != "brng")
      return fail(ErrorCode::kInvalidArgument, "--signalstats-stat: '", flag,
                  "' is not tout, vrep or brng");
  }
  return Status::success();
}

}  // namespace esf::cli
