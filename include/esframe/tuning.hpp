#pragma once
// The tuning cache: the stages' parameters measured fastest on a GPU (esframe/tune.hpp), kept
// per GPU, driver and frame size class, and read by strategy=auto (HistogramConfig::strategy
// unset) and Backend::kAuto. One JSON file, $XDG_CACHE_HOME/esframe/tuning.json (default
// ~/.cache/esframe/tuning.json); the selftest's verdict is kept there too.
#include <string>
#include <string_view>
#include <vector>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/gpu.hpp"

namespace esf {

// The tuning cache's path when none is given: $XDG_CACHE_HOME/esframe/tuning.json, or
// $HOME/.cache/esframe/tuning.json.
ESF_API Result<std::string> defaultTuningCachePath();

// One record of the cache.
struct TuningRecord {
  std::string gl_vendor, gl_renderer, gl_version;  // the GPU and driver that measured it
  std::string size_class;                          // "1920x1080", "larger"
  std::string stage;        // "histogram", "blur", "backend:<chain>", "selftest"
  std::string params_json;  // the tuned parameters as a JSON object
  double median_ms = 0;     // the winner's median time when tuned
  std::string frame;        // the frame size tuned with, "1920x1080"
  std::string tuned_at;     // UTC, ISO 8601
};

struct TuningCacheContents {
  std::string path;
  std::vector<TuningRecord> records;
  std::string json;     // the whole cache as a JSON document
  std::string warning;  // what was wrong with the file ("": nothing; a corrupt file reads empty)
};

// Reads the cache at `path`: a missing file is an empty cache, a corrupt one an empty cache with
// a warning naming the file, and a malformed record is dropped with one.
ESF_API Result<TuningCacheContents> readTuningCache(const std::string& path);
// Removes the cache file; a missing one is not an error.
ESF_API Status removeTuningCache(const std::string& path);

// What strategy=auto picks on `gpu` for frames of a size class, and why: one line per stage.
struct StrategyAutoChoice {
  std::string size_class;  // "640x480", "1280x720", "1920x1080", "3840x2160"
  std::string histogram;
  std::string blur;
};
// The choices at each size class with the cache at `cache_path`.
ESF_API Result<std::vector<StrategyAutoChoice>> strategyAutoChoices(GpuContext& gpu,
                                                                    const std::string& cache_path);

// The frames tuning measures on. Content changes the cost of atomics:
//   random    uniform noise: counts spread over all bins (the easy case for atomics)
//   flat      one colour, a lens cap: every pixel hits the same bin, the contention worst case
//   gradient  smooth ramps in x and y
//   natural   gradient plus +-16 of noise: clustered like a camera frame (the tuning default)
enum class FrameContent { kRandom, kFlat, kGradient, kNatural };
ESF_API const char* frameContentName(FrameContent c);  // "random", "flat", "gradient", "natural"
ESF_API Result<FrameContent> parseFrameContent(std::string_view name);

}  // namespace esf
