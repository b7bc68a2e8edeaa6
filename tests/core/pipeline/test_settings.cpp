// PipelineConfig::validate reads the settings' tables (esframe/settings.hpp): for every health
// and raw number, the ends of its range pass, a value beyond either end that the field can hold
// fails naming the field, and parseHealthConfig's text takes the same range.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>

#include "esframe/pipeline_config.hpp"
#include "esframe/settings.hpp"

namespace esf {
namespace {

template <typename Config, typename Place>
void checkTable(const std::vector<Setting<Config>>& table, Place place) {
  for (const Setting<Config>& s : table) {
    SCOPED_TRACE(s.field);
    const double step = s.type == SettingType::kInteger ? 1 : (s.max - s.min) * 1e-3;
    for (double v : {s.min, s.max, s.min - step, s.max + step}) {
      // The integer fields are unsigned or sizes: a value below 0 is not one they can hold.
      if (v < 0 && s.type == SettingType::kInteger) continue;
      const bool want = v >= s.min && v <= s.max;
      PipelineConfig config;
      Config& target = place(config);
      if constexpr (std::is_same_v<Config, HealthConfig>) {
        // The grid has both sides or neither.
        const std::string field = s.field;
        if (field == "grid_columns" || field == "grid_rows")
          target.grid_columns = target.grid_rows = want ? int(v) : 1;
      }
      s.set(target, v);
      Status st = config.validate();
      EXPECT_EQ(st.ok(), want) << v << ": " << (st.ok() ? "" : st.error().message);
      if (!st.ok()) {
        EXPECT_NE(st.error().message.find(s.field), std::string::npos) << st.error().message;
      }
    }
  }
}

TEST(Settings, ValidateTakesEachHealthRange) {
  checkTable(healthSettings(), [](PipelineConfig& c) -> HealthConfig& {
    if (!c.health) c.health.emplace();
    return *c.health;
  });
}

TEST(Settings, ValidateTakesEachRawRange) {
  checkTable(rawSettings(), [](PipelineConfig& c) -> RawConfig& {
    c.raw.white = 0;  // the format's largest: above any black level
    return c.raw;
  });
}

TEST(Settings, TheTextTakesTheSameRanges) {
  for (const HealthSetting& s : healthSettings()) {
    if (!*s.key) continue;
    SCOPED_TRACE(s.key);
    const double step = s.type == SettingType::kInteger ? 1 : (s.max - s.min) * 1e-3;
    for (double v : {s.min, s.max, s.min - step, s.max + step}) {
      char text[64];
      std::snprintf(text, sizeof text, "%s=%.17g", s.key, v);
      EXPECT_EQ(parseHealthConfig(text).ok(), v >= s.min && v <= s.max) << text;
    }
  }
  // Hand-written: ffmpeg's ranges and a day for durations.
  EXPECT_FALSE(parseHealthConfig("pix_th=1.01").ok());
  EXPECT_FALSE(parseHealthConfig("black_min_duration=86401").ok());
  EXPECT_TRUE(parseHealthConfig("threshold=100").ok());
  EXPECT_FALSE(parseHealthConfig("change=16.5").ok());
}

}  // namespace
}  // namespace esf
