// The public view of the tuning cache and of strategy=auto (esframe/tuning.hpp).
#include <utility>

#include "base/api_guard.hpp"
#include "core/tuning/auto_params.hpp"
#include "core/tuning/tuning_cache.hpp"
#include "esframe/tuning.hpp"
#include "platform/gpu_context_access.hpp"

namespace esf {

Result<std::string> defaultTuningCachePath() {
  return guard("defaultTuningCachePath",
               []() -> Result<std::string> { return TuningCache::defaultPath(); });
}

Result<TuningCacheContents> readTuningCache(const std::string& path) {
  return guard("readTuningCache", [&]() -> Result<TuningCacheContents> {
    TuningCacheContents contents;
    const TuningCache cache = TuningCache::load(path, &contents.warning);
    contents.path = cache.path();
    for (const CacheEntry& e : cache.entries())
      contents.records.push_back({e.device.vendor, e.device.renderer, e.device.driver, e.size_class,
                                  e.stage, e.params.dump(), e.median_ms, e.frame, e.tuned_at});
    contents.json = cache.toJson().dump();
    return contents;
  });
}

Status removeTuningCache(const std::string& path) {
  return guard("removeTuningCache", [&] { return TuningCache::reset(path); });
}

Result<std::vector<StrategyAutoChoice>> strategyAutoChoices(GpuContext& gpu,
                                                            const std::string& cache_path) {
  return guard("strategyAutoChoices", [&]() -> Result<std::vector<StrategyAutoChoice>> {
    const GlContext& gl = GpuContextAccess::gl(gpu);
    std::vector<StrategyAutoChoice> choices;
    for (auto [w, h] : {std::pair{640, 480}, {1280, 720}, {1920, 1080}, {3840, 2160}}) {
      StrategyAutoChoice c;
      c.size_class = sizeClass(w, h);
      chooseHistogramParams(gl, w, h, &c.histogram, HistogramParams{}, cache_path);
      chooseBlurParams(gl, w, h, &c.blur, BlurParams{}, cache_path);
      choices.push_back(std::move(c));
    }
    return choices;
  });
}

}  // namespace esf
