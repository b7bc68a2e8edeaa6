// The tables of esframe/settings.hpp. Ranges are ffmpeg's where ffmpeg has the option
// (blackdetect, freezedetect, scdet); durations at most a day.
#include "esframe/settings.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "base/api_guard.hpp"

namespace esf {
namespace {

constexpr double kDay = 86400;

std::string formatNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

// One row: key, field, type, range, decibels, help, and the field's get and set (the set casts to
// the field's own type: checkSetting() has kept the value within it).
#define ESF_SETTING(Config, key, field, type, min, max, db, help)                \
  Setting<Config> {                                                              \
    key, #field, SettingType::type, min, max, db, help,                          \
        [](const Config& c) { return double(c.field); },                         \
        [](Config& c, double v) { c.field = static_cast<decltype(c.field)>(v); } \
  }
#define ESF_NUMBER(Config, key, field, min, max, db, help) \
  ESF_SETTING(Config, key, field, kNumber, min, max, db, help)
#define ESF_INTEGER(Config, key, field, min, max, help) \
  ESF_SETTING(Config, key, field, kInteger, min, max, false, help)

const std::vector<HealthSetting>& healthSettings() {
  static const std::vector<HealthSetting> table = {
      ESF_NUMBER(HealthConfig, "pix_th", pixel_black_th, 0, 1, false,
                 "a pixel is black at or below this fraction of the luma range"),
      ESF_NUMBER(HealthConfig, "pic_th", picture_black_ratio_th, 0, 1, false,
                 "a picture is black when at least this fraction of its pixels are"),
      ESF_NUMBER(HealthConfig, "black_min_duration", black_min_duration, 0, kDay, false,
                 "seconds a black interval lasts before it is an event"),
      ESF_NUMBER(HealthConfig, "noise", freeze_noise, 0, 1, true,
                 "a frame is frozen at or below this mean difference (a fraction, or dB)"),
      ESF_NUMBER(HealthConfig, "freeze_duration", freeze_duration, 0, kDay, false,
                 "seconds a freeze lasts before it is an event"),
      ESF_NUMBER(HealthConfig, "threshold", scene_threshold, 0, 100, false,
                 "a scene change scores above this (0-100)"),
      ESF_INTEGER(HealthConfig, "", grid_columns, 0, kMaxHealthGridSide,
                  "the regions' grid: columns (text: grid=CxR)"),
      ESF_INTEGER(HealthConfig, "", grid_rows, 0, kMaxHealthGridSide,
                  "the regions' grid: rows (text: grid=CxR)"),
      ESF_INTEGER(HealthConfig, "change", change_level, 0, 255,
                  "a pixel changed when its luma moved by more than this"),
      ESF_NUMBER(HealthConfig, "flat", flat_tenengrad, 0, 1e9, false,
                 "a region is flat below this Tenengrad"),
      ESF_NUMBER(HealthConfig, "detail_loss", detail_loss, 0, 1, false,
                 "or below this fraction of its last uncovered Tenengrad"),
      ESF_NUMBER(HealthConfig, "covered", covered_ratio, 0, 1, false,
                 "the picture is covered when this fraction of its cells are flat"),
      ESF_NUMBER(HealthConfig, "covered_min_duration", covered_min_duration, 0, kDay, false,
                 "seconds a covered run lasts before it is an event"),
  };
  return table;
}

const std::vector<RawSetting>& rawSettings() {
  static const std::vector<RawSetting> table = {
      ESF_INTEGER(RawConfig, "black", black, 0, 65535, "the sensor's black level"),
      ESF_INTEGER(RawConfig, "white", white, 0, 65535,
                  "the sensor's white level (0: the format's largest value)"),
      ESF_INTEGER(RawConfig, "", gain_r, 1, 4096,
                  "white balance: red gain, 256 = 1.0 (text: wb=R,B)"),
      ESF_INTEGER(RawConfig, "", gain_b, 1, 4096,
                  "white balance: blue gain, 256 = 1.0 (text: wb=R,B)"),
  };
  return table;
}

#undef ESF_NUMBER
#undef ESF_INTEGER
#undef ESF_SETTING

Status checkSetting(std::string_view what, SettingType type, double min, double max, double value) {
  return guard("setting check", [&]() -> Status {
    const bool whole = type == SettingType::kNumber || std::floor(value) == value;
    if (value >= min && value <= max && whole) return Status::success();  // NaN fails
    return fail(ErrorCode::kInvalidArgument, std::string(what), " must be ",
                type == SettingType::kInteger ? "an integer " : "", "in [", formatNumber(min), ", ",
                formatNumber(max), "], got ", formatNumber(value));
  });
}

}  // namespace esf
