#pragma once
// The selftest's verdict, kept in the tuning cache (core/tuning/tuning_cache.hpp) as the entry of
// stage "selftest", size class "any", per GPU and driver (DeviceKey: GL_VERSION carries the
// driver's version) and for one esframe version: another version's shaders are not this one's,
// so its verdict does not count. `--backend auto` reads it.
#include <optional>
#include <string>

#include "core/pipeline/backend_choice.hpp"
#include "core/pipeline/selftest.hpp"
#include "core/tuning/tuning_cache.hpp"

namespace esf {

CacheEntry verdictEntry(const SelftestReport& report);
// The verdict of this esframe version for `device`, if it has one.
std::optional<SelftestVerdict> findVerdict(const TuningCache& cache, const DeviceKey& device);
// "passed (quick, 12 checks, 2026-11-25T10:00:00Z)" / "FAILED: <first failure> (...)".
std::string describeVerdict(const SelftestVerdict& verdict);

// Backend::kAuto's last word on a GPU the renderer rule or the tuning cache chose: one whose
// selftest failed is refused (the CPU executor runs, and the reason says why); one this version
// has never checked gets the quick selftest first, its verdict stored in the tuning cache at
// `cache_path` ("" for TuningCache::defaultPath()), so once per driver. `run_selftest` false
// (GpuConfig::selftest) trusts an unchecked GPU. Other choices pass through unchanged.
BackendChoice checkAutoChoice(const BackendChoice& choice, GlContext& gl, bool run_selftest,
                              const std::string& cache_path = "");

}  // namespace esf
