// The words of the public API that base declares: the names and parsers of include/esframe/
// pipeline_config.hpp's enums (backend, histogram strategy, luma source, EGL platform), the
// parser of source.hpp's I/O mode (its names: io_mode.cpp, which the libcamera module compiles
// too), health.hpp's event names, and the library's version (version.hpp). Defined in the layer
// of their declarations, so that every layer may call them; the CLI, the Python module and the
// GStreamer element print and parse these words.
#include <string>

#include "base/api_guard.hpp"
#include "esframe/health.hpp"
#include "esframe/pipeline_config.hpp"
#include "esframe/source.hpp"
#include "esframe/version.hpp"

namespace esf {
namespace {

struct StrategyName {
  HistogramStrategy strategy;
  const char* name;
};
constexpr StrategyName kStrategies[] = {
    {HistogramStrategy::kSingle, "single"},
    {HistogramStrategy::kGlobalAtomic, "global-atomic"},
    {HistogramStrategy::kChunkSum, "chunk-sum"},
    {HistogramStrategy::kChunkReduce, "chunk-reduce"},
    {HistogramStrategy::kPersistent, "persistent"},
    {HistogramStrategy::kReplicated, "replicated"},
};

}  // namespace

const char* libraryVersion() {
  return ESFRAME_VERSION_STRING;
}

const char* backendName(Backend backend) {
  switch (backend) {
    case Backend::kAuto:
      return "auto";
    case Backend::kGles:
      return "gles";
    case Backend::kCpu:
      return "cpu";
    case Backend::kReference:
      return "reference";
  }
  return "?";
}

Result<Backend> parseBackend(std::string_view name) {
  for (Backend b : {Backend::kAuto, Backend::kGles, Backend::kCpu, Backend::kReference})
    if (name == backendName(b)) return b;
  return guard("backend name", [&]() -> Result<Backend> {
    return fail(ErrorCode::kInvalidArgument, "unknown backend '", std::string(name),
                "' (auto, gles, cpu, reference)");
  });
}

const char* lumaSourceName(LumaSource luma) {
  return luma == LumaSource::kSource ? "source" : "rgb";
}

const char* histogramStrategyName(HistogramStrategy s) {
  for (const StrategyName& n : kStrategies)
    if (n.strategy == s) return n.name;
  return "?";
}

Result<HistogramStrategy> parseHistogramStrategy(std::string_view name) {
  for (const StrategyName& n : kStrategies)
    if (name == n.name) return n.strategy;
  return guard("histogram strategy name", [&]() -> Result<HistogramStrategy> {
    return fail(ErrorCode::kInvalidArgument, "unknown histogram strategy '", name,
                "' (single, global-atomic, chunk-sum, chunk-reduce, persistent, replicated)");
  });
}

const char* toString(EglPlatform p) {
  switch (p) {
    case EglPlatform::kAuto:
      return "auto";
    case EglPlatform::kGbm:
      return "gbm";
    case EglPlatform::kDevice:
      return "device";
    case EglPlatform::kSurfaceless:
      return "surfaceless";
  }
  return "?";
}

Result<EglPlatform> parseEglPlatform(const std::string& s) {
  for (EglPlatform p :
       {EglPlatform::kAuto, EglPlatform::kGbm, EglPlatform::kDevice, EglPlatform::kSurfaceless})
    if (s == toString(p)) return p;
  return guard("EGL platform name", [&]() -> Result<EglPlatform> {
    return fail(ErrorCode::kInvalidArgument, "unknown EGL platform '", s,
                "' (auto, gbm, device, surfaceless)");
  });
}

Result<IoMode> parseIoMode(const std::string& s) {
  for (IoMode m : {IoMode::kAuto, IoMode::kMmap, IoMode::kDmabuf, IoMode::kExpbuf})
    if (s == toString(m)) return m;
  return guard("io mode name", [&]() -> Result<IoMode> {
    return fail(ErrorCode::kInvalidArgument, "unknown io mode '", s,
                "' (auto, mmap, dmabuf, expbuf)");
  });
}

const char* healthEventName(HealthEventType type) {
  switch (type) {
    case HealthEventType::kBlackStart:
      return "black_start";
    case HealthEventType::kBlackEnd:
      return "black_end";
    case HealthEventType::kFreezeStart:
      return "freeze_start";
    case HealthEventType::kFreezeEnd:
      return "freeze_end";
    case HealthEventType::kSceneChange:
      return "scene_change";
    case HealthEventType::kCoveredStart:
      return "covered_start";
    case HealthEventType::kCoveredEnd:
      return "covered_end";
    case HealthEventType::kCameraOffline:
      return "camera_offline";
    case HealthEventType::kCameraOnline:
      return "camera_online";
  }
  return "unknown";
}

}  // namespace esf
