#pragma once
// Each number of a configuration declared once: its name in the KEY=VALUE text that the CLI and
// the GStreamer element take, its field (the Python module's keyword), its type, range and
// meaning. The text parsers, PipelineConfig::validate, the Python module and its .pyi all read
// these tables, so a value one of them accepts, all accept.
#include <string>
#include <string_view>
#include <vector>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/health.hpp"
#include "esframe/pipeline_config.hpp"

namespace esf {

enum class SettingType { kNumber, kInteger };

template <typename Config>
struct Setting {
  // In KEY=VALUE text ("pix_th": ffmpeg's name where ffmpeg has the option); "" where the text
  // spells it another way (health's grid=CxR, raw's wb=R,B).
  const char* key;
  const char* field;  // the struct's field and the Python keyword ("pixel_black_th")
  SettingType type;
  double min, max;  // inclusive
  bool decibels;    // the text also takes "-60dB" (10^(dB/20)), as ffmpeg's freezedetect does
  const char* help;
  double (*get)(const Config&);
  void (*set)(Config&, double);  // a value that checkSetting() accepted
};

using HealthSetting = Setting<HealthConfig>;
using RawSetting = Setting<RawConfig>;

// HealthConfig's numbers (not its rois), in the struct's order.
ESF_API const std::vector<HealthSetting>& healthSettings();
// RawConfig's numbers.
ESF_API const std::vector<RawSetting>& rawSettings();

// Whether `value` is in [min, max] (and whole, for an integer): kInvalidArgument
// "<what> must be in [min, max], got <value>" otherwise.
ESF_API Status checkSetting(std::string_view what, SettingType type, double min, double max,
                            double value);
// The same for a setting: "<prefix> <field> must be in ...".
template <typename Config>
Status checkSetting(std::string_view prefix, const Setting<Config>& s, double value) {
  std::string what(prefix);
  what.append(" ").append(s.field);
  return checkSetting(what, s.type, s.min, s.max, value);
}
// Every setting of `config` checked.
template <typename Config>
Status checkSettings(std::string_view what, const std::vector<Setting<Config>>& table,
                     const Config& config) {
  for (const Setting<Config>& s : table) {
    if (Status st = checkSetting(what, s, s.get(config)); !st) return st;
  }
  return Status::success();
}

}  // namespace esf
