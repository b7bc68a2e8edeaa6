#pragma once
// `esframe tune --stages backend`: the GLES stages against the CPU executor, whole frames, on
// this machine, per stage chain and size class. The winner is stored in the tuning cache
// (tuning_cache.hpp) as stage "backend:<chain>" with params
//   {"backend": "gles" | "cpu", "gles_ms": median, "cpu_ms": median}
// and Backend::kAuto follows it (core/pipeline/backend_choice.hpp) on the GPU and driver that
// measured it. The chain names the stages only: bins, taps and sizes change both backends' cost
// alike enough that one record per chain and size class is the useful grain.
#include <functional>
#include <optional>
#include <string>

#include "core/tuning/measure.hpp"
#include "core/tuning/tuning_cache.hpp"

namespace esf {

// "histogram", "blur+histogram", "resize+histogram" or "blur+resize+histogram", each with
// "+scopes" after it when the scopes are counted (they weigh very differently on the two backends).
std::string stageChain(bool blur, bool resize, bool scopes = false);
// The cache's stage name of a chain's record: "backend:" + chain.
std::string backendCacheStage(const std::string& chain);

struct BackendRecord {
  std::string backend;  // "gles" or "cpu": the faster
  double gles_ms = 0, cpu_ms = 0;
  std::string frame, tuned_at;  // from the cache entry
};

// The record for this device, chain and frame size (its size class), if the cache has a valid one.
std::optional<BackendRecord> findBackendRecord(const TuningCache& cache, const DeviceKey& device,
                                               const std::string& chain, int width, int height);
// Whether the cache holds any backend record of this device and chain (at any size).
bool hasBackendRecords(const TuningCache& cache, const DeviceKey& device, const std::string& chain);

// Times whole frames on both backends (`gles` and `cpu` each process one frame and return when
// its results are in CPU memory) and returns the faster, by median.
Result<BackendRecord> compareBackends(const MeasureOptions& options,
                                      const std::function<Status()>& gles,
                                      const std::function<Status()>& cpu);

// The cache entry of a comparison on a width x height frame.
CacheEntry backendEntry(const DeviceKey& device, const std::string& chain, int width, int height,
                        const BackendRecord& record);

}  // namespace esf
