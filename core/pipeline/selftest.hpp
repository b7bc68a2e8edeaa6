#pragma once
// `esframe selftest`: the GPU's stages against the plain CPU references, bit for bit, on the
// frames driver bugs show on: seeded random (every bin), flat (one bin: the atomics' worst case)
// and gradients, at odd sizes (1x1, 257x3, 127x129: partial workgroups, tiles and rows) and one
// large size, with each pipeline also fed a smaller frame after a larger one (state kept from
// the previous size). A driver that miscounts is worse than none: a monitoring tool that prints
// wrong histograms is trusted and wrong. The verdict goes into the tuning cache
// (selftest_verdict.hpp), where `--backend auto` reads it.
//
// Each check is one pipeline configuration (a stage and its parameters) over its frames: the
// histogram at what strategy=auto picks on this GPU (every strategy with all_strategies), at
// 256, 64 and 1 bins; import of every pixel format; source luma; the blur, also in its packed
// form; resize; the Bayer demosaic with the raw statistics. A configuration the GPU refuses with
// one line (ErrorCode::kUnsupported: a size past a limit) is reported as refused, not as wrong.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tuning/tuning_cache.hpp"
#include "esframe/gpu_checks.hpp"
#include "esframe/pipeline_config.hpp"
#include "platform/gl_context.hpp"

namespace esf {

// The work budget of a quick selftest at its default size, in pixels processed on the GPU (about
// two frames of 1080p): a Pi's v3d counts that in well under a second; compiling the stages'
// shaders the first time is most of a quick selftest's few seconds.
inline constexpr uint64_t kQuickSelftestPixels = 4'000'000;

struct SelftestReport {
  DeviceKey device;
  std::string esframe_version;
  std::string egl_platform;
  bool quick = false;
  bool all_strategies = false;
  bool spec_minimum_limits = false;  // ESFRAME_GL_LIMITS=gles31-min
  std::vector<SelftestFact> facts;
  std::vector<SelftestCheck> checks;
  double seconds = 0;
  std::string at;  // UTC, ISO 8601

  // Every check exact or refused, and no fact wrong.
  bool passed() const;
  uint64_t pixels() const;
  // The first check or fact that failed, as one line; empty when passed().
  std::string firstFailure() const;
};

// Runs the checks on `gl` (current on this thread); `on_check` sees each check as it ends.
SelftestReport runSelftest(GlContext& gl, const SelftestOptions& options,
                           const std::function<void(const SelftestCheck&)>& on_check = {});

// The report as `esframe selftest --json` prints it (docs/selftest-report.schema.json).
nlohmann::json selftestJson(const SelftestReport& report);

}  // namespace esf
