// The words of the public API that base declares: the names and parsers of include/esframe/
// pipeline_config.hpp's enums (backend, histogram strategy, luma source, EGL platform), the
// parser of source.hpp's I/O mode (its names: io_mode.cpp, which the libcamera module compiles
// too), health.hpp's event names, and the library's version (version.hpp). Defined in the layer
// of their declarations, so that every layer may call them; the CLI, the Python module and the
// GStreamer element print and parse these words.
#include <string>

#include "base/api_guard.hpp"
#include "base/enum_names.hpp"
#include "base/io_mode.hpp"
#include "esframe/health.hpp"
#include "esframe/pipeline_config.hpp"
#include "esframe/source.hpp"
#include "esframe/version.hpp"

namespace esf {
namespace {

constexpr EnumName<Backend> kBackends[] = {
    {Backend::kAuto, "auto"},
    {Backend::kGles, "gles"},
    {Backend::kCpu, "cpu"},
    {Backend::kReference, "reference"},
};

constexpr EnumName<HistogramStrategy> kStrategies[] = {
    {HistogramStrategy::kSingle, "single"},
    {HistogramStrategy::kGlobalAtomic, "global-atomic"},
    {HistogramStrategy::kChunkSum, "chunk-sum"},
    {HistogramStrategy::kChunkReduce, "chunk-reduce"},
    {HistogramStrategy::kPersistent, "persistent"},
    {HistogramStrategy::kReplicated, "replicated"},
};

constexpr EnumName<EglPlatform> kEglPlatforms[] = {
    {EglPlatform::kAuto, "auto"},
    {EglPlatform::kGbm, "gbm"},
    {EglPlatform::kDevice, "device"},
    {EglPlatform::kSurfaceless, "surfaceless"},
};

constexpr EnumName<HealthEventType> kHealthEvents[] = {
    {HealthEventType::kBlackStart, "black_start"},
    {HealthEventType::kBlackEnd, "black_end"},
    {HealthEventType::kFreezeStart, "freeze_start"},
    {HealthEventType::kFreezeEnd, "freeze_end"},
    {HealthEventType::kSceneChange, "scene_change"},
    {HealthEventType::kCoveredStart, "covered_start"},
    {HealthEventType::kCoveredEnd, "covered_end"},
    {HealthEventType::kCameraOffline, "camera_offline"},
    {HealthEventType::kCameraOnline, "camera_online"},
};

// parseNameIn, its message built inside the API's guard.
template <typename E, size_t N>
Result<E> parseName(const EnumName<E> (&table)[N], std::string_view name, std::string_view what) {
  return guard(what, [&] { return parseNameIn(table, name, what); });
}

}  // namespace

const char* libraryVersion() {
  return ESFRAME_VERSION_STRING;
}

const char* backendName(Backend backend) {
  return nameIn(kBackends, backend);
}

Result<Backend> parseBackend(std::string_view name) {
  return parseName(kBackends, name, "backend");
}

const char* lumaSourceName(LumaSource luma) {
  return luma == LumaSource::kSource ? "source" : "rgb";
}

const char* histogramStrategyName(HistogramStrategy s) {
  return nameIn(kStrategies, s);
}

Result<HistogramStrategy> parseHistogramStrategy(std::string_view name) {
  return parseName(kStrategies, name, "histogram strategy");
}

const char* toString(EglPlatform p) {
  return nameIn(kEglPlatforms, p);
}

Result<EglPlatform> parseEglPlatform(const std::string& s) {
  return parseName(kEglPlatforms, s, "EGL platform");
}

Result<IoMode> parseIoMode(const std::string& s) {
  return parseName(kIoModeNames, s, "io mode");
}

const char* healthEventName(HealthEventType type) {
  return nameIn(kHealthEvents, type, "unknown");
}

}  // namespace esf
