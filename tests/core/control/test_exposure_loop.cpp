// ExposureLoop against model cameras: a sensor whose mean luma is exposure x gain (the
// multiplicative controls) and a generator whose picture shifts with brightness (the additive
// path, like vivid), both showing a change only two frames later, as queued buffers do.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <map>
#include <vector>

#include "core/control/exposure_loop.hpp"
#include "core/stats/exposure_stats.hpp"

namespace esf {
namespace {

class ModelCamera : public CameraControls {
 public:
  std::map<std::string, ControlRange> controls;
  std::vector<std::pair<std::string, int64_t>> log;     // every set(), in order
  std::deque<std::map<std::string, int64_t>> pipeline;  // values of the frames in flight

  Result<ControlRange> query(const std::string& name) override {
    auto it = controls.find(name);
    if (it == controls.end()) return fail(ErrorCode::kNotFound, "no control named '", name, "'");
    return it->second;
  }
  Status set(const std::string& name, int64_t value) override {
    ControlRange& r = controls.at(name);
    if (value < r.minimum || value > r.maximum)
      return fail(ErrorCode::kInvalidArgument, name, " out of range");
    r.value = value;
    log.emplace_back(name, value);
    return Status::success();
  }
  // The control values the next frame was captured with: those of two frames ago.
  std::map<std::string, int64_t> capture() {
    std::map<std::string, int64_t> now;
    for (const auto& [name, r] : controls) now[name] = r.value;
    pipeline.push_back(now);
    if (pipeline.size() < 3) return pipeline.front();
    std::map<std::string, int64_t> shown = pipeline.front();
    pipeline.pop_front();
    return shown;
  }
};

ModelCamera sensor(int64_t exposure, int64_t gain) {
  ModelCamera c;
  c.controls["exposure_time_absolute"] = {1, 2000, 1, exposure};
  c.controls["gain"] = {100, 800, 1, gain};
  c.controls["auto_exposure"] = {0, 3, 1, 3};  // aperture priority: the camera's own loop
  c.controls["gain_automatic"] = {0, 1, 1, 1};
  return c;
}

// Mean luma of the sensor: exposure x gain / 1000, clipped at 255.
double sensorMean(const std::map<std::string, int64_t>& v) {
  return std::min(255.0, double(v.at("exposure_time_absolute") * v.at("gain")) / 1000.0);
}

// msv of a picture whose 80 values spread evenly around `centre` (clipped to 0..255).
double spreadMsv(int centre) {
  std::vector<uint64_t> counts(256, 0);
  for (int d = -40; d < 40; ++d) ++counts[size_t(std::clamp(centre + d, 0, 255))];
  return meanSampleValue(counts);
}

struct Outcome {
  int converged_at = -1;  // first frame of a converged run that lasts to the end
  AutoExposureState last;
};

template <typename Measure>
Outcome runLoop(ModelCamera& camera, const AutoExposureOptions& o, Measure measure, int frames) {
  Result<std::unique_ptr<ExposureLoop>> loop = ExposureLoop::create(camera, o);
  EXPECT_TRUE(loop) << loop.error().message;
  Outcome out;
  if (!loop) return out;
  for (int f = 0; f < frames; ++f) {
    Result<AutoExposureState> s = (*loop)->step(measure(camera.capture()));
    EXPECT_TRUE(s) << s.error().message;
    if (!s) return out;
    if (!s->converged) out.converged_at = -1;
    if (s->converged && out.converged_at < 0) out.converged_at = f;
    out.last = s.value();
  }
  return out;
}

AutoExposureOptions meanOptions() {
  AutoExposureOptions o;
  o.metric = ExposureMetric::kMean;
  o.target = 118;
  o.band = 8;
  return o;
}

TEST(ExposureLoop, SensorConvergesFromDarkAndBright) {
  for (auto [exposure, gain] : {std::pair{20, 100}, std::pair{2000, 800}}) {
    SCOPED_TRACE(exposure);
    ModelCamera camera = sensor(exposure, gain);
    const Outcome out = runLoop(camera, meanOptions(), sensorMean, 60);
    EXPECT_GE(out.converged_at, 0) << "never settled: mean " << out.last.measure;
    EXPECT_LE(out.converged_at, 40);
    EXPECT_NEAR(out.last.measure, 118, 8);
    ASSERT_EQ(out.last.controls.size(), 2u);
    EXPECT_EQ(out.last.controls[0].name, "exposure_time_absolute");
    EXPECT_EQ(out.last.controls[1].name, "gain");
  }
}

TEST(ExposureLoop, ExposureBeforeGainUpAndGainBeforeExposureDown) {
  // Dark at full exposure: only gain can rise.
  ModelCamera dark = sensor(2000, 100);
  dark.controls["exposure_time_absolute"].value = 2000;
  auto dim = [](const std::map<std::string, int64_t>& v) {
    return double(v.at("exposure_time_absolute") * v.at("gain")) / 20000.0;
  };
  runLoop(dark, meanOptions(), dim, 8);  // the log ends with the restore of every control
  int64_t highest_gain = 0;
  for (const auto& [name, value] : dark.log) {
    if (name == "exposure_time_absolute") {
      EXPECT_EQ(value, 2000) << "exposure moved";
    }
    if (name == "gain") highest_gain = std::max(highest_gain, value);
  }
  EXPECT_GT(highest_gain, 100);
  // Bright with gain up: gain comes down first, exposure stays.
  ModelCamera bright = sensor(1000, 800);
  runLoop(bright, meanOptions(), sensorMean, 4);
  ASSERT_GE(bright.log.size(), 3u);
  EXPECT_EQ(bright.log[2].first, "gain");
  EXPECT_LT(bright.log[2].second, 800);
  EXPECT_EQ(bright.controls["exposure_time_absolute"].value, 1000);
}

TEST(ExposureLoop, BrightnessByNameConvergesOnMsv) {
  for (int64_t start : {0, 255}) {
    SCOPED_TRACE(start);
    ModelCamera camera;
    camera.controls["brightness"] = {0, 255, 1, start};
    AutoExposureOptions o;  // msv 2.5 +- 0.1
    o.control = "brightness";
    auto msv = [](const std::map<std::string, int64_t>& v) {
      return spreadMsv(int(v.at("brightness")) - 10);
    };
    const Outcome out = runLoop(camera, o, msv, 40);
    EXPECT_GE(out.converged_at, 0) << "msv " << out.last.measure;
    EXPECT_LE(out.converged_at, 25);
    EXPECT_NEAR(out.last.measure, 2.5, 0.1);
  }
}

TEST(ExposureLoop, StopsAtTheRangeAndIsNotConverged) {
  ModelCamera camera;
  camera.controls["brightness"] = {0, 255, 5, 250};
  AutoExposureOptions o;
  o.control = "brightness";
  const Outcome out = runLoop(
      camera, o, [](const auto&) { return 1.0; }, 20);
  EXPECT_FALSE(out.last.converged);
  EXPECT_EQ(out.last.controls[0].value, 255);  // at the top of the range
  ASSERT_EQ(camera.log.size(), 2u);            // one move, then the restore
  EXPECT_EQ(camera.log[0].second, 255);
  EXPECT_EQ(camera.log[1].second, 250);
}

TEST(ExposureLoop, AutoModesOffFirstAndEverythingRestored) {
  ModelCamera camera = sensor(20, 100);
  {
    Result<std::unique_ptr<ExposureLoop>> loop = ExposureLoop::create(camera, meanOptions());
    ASSERT_TRUE(loop);
    EXPECT_EQ(camera.controls["auto_exposure"].value, 1);  // manual
    EXPECT_EQ(camera.controls["gain_automatic"].value, 0);
    for (int f = 0; f < 10; ++f) ASSERT_TRUE((*loop)->step(sensorMean(camera.capture())));
    EXPECT_NE(camera.controls["exposure_time_absolute"].value, 20);
    camera.log.clear();
    ASSERT_TRUE((*loop)->restore());
    // The moved controls go back while still in manual mode, then the camera's own loops.
    ASSERT_EQ(camera.log.size(), 4u);
    EXPECT_EQ(camera.log[0], (std::pair<std::string, int64_t>{"exposure_time_absolute", 20}));
    EXPECT_EQ(camera.log[1], (std::pair<std::string, int64_t>{"gain", 100}));
    EXPECT_EQ(camera.log[2], (std::pair<std::string, int64_t>{"auto_exposure", 3}));
    EXPECT_EQ(camera.log[3], (std::pair<std::string, int64_t>{"gain_automatic", 1}));
    camera.log.clear();
  }  // destroyed: restore() is not repeated
  EXPECT_TRUE(camera.log.empty());
  // Destroyed without restore(): the destructor restores.
  {
    Result<std::unique_ptr<ExposureLoop>> loop = ExposureLoop::create(camera, meanOptions());
    ASSERT_TRUE(loop);
    ASSERT_TRUE((*loop)->step(10));
  }
  EXPECT_EQ(camera.controls["auto_exposure"].value, 3);
  EXPECT_EQ(camera.controls["exposure_time_absolute"].value, 20);
}

TEST(ExposureLoop, MissingControlsAreNamed) {
  ModelCamera none;
  none.controls["brightness"] = {0, 255, 1, 128};
  Result<std::unique_ptr<ExposureLoop>> loop = ExposureLoop::create(none, meanOptions());
  ASSERT_FALSE(loop);
  EXPECT_NE(loop.error().message.find("no exposure or gain control"), std::string::npos);
  AutoExposureOptions o;
  o.control = "contrast";
  loop = ExposureLoop::create(none, o);
  ASSERT_FALSE(loop);
  EXPECT_NE(loop.error().message.find("'contrast'"), std::string::npos);
  EXPECT_EQ(none.log.size(), 0u) << "nothing touched on failure";
}

}  // namespace
}  // namespace esf
