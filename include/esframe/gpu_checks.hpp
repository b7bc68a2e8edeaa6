#pragma once
// What checks a GPU (esframe/gpu.hpp) beyond running a pipeline on it:
//   - the selftest: its stages against the plain CPU references, bit for bit, with the verdict
//     stored in the tuning cache where Backend::kAuto reads it;
//   - the program check: every GPU program esframe can build, compiled on this driver, with what
//     its compiler reports;
//   - what Backend::kAuto makes of a GPU (or of none) and why.
// `esframe selftest`, `esframe programs` and `esframe info` are these calls.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/gpu.hpp"
#include "esframe/pipeline_config.hpp"

namespace esf {

struct SelftestOptions {
  // A few checks on small frames: about two 1080p frames through the GPU, a few seconds
  // on a Raspberry Pi's v3d (most of it compiling shaders, once per driver with the program cache).
  bool quick = false;
  bool all_strategies = false;  // every histogram strategy, not only what auto picks here
  Size large{0, 0};             // the large frame; 0x0: 1920x1080, or 640x480 when quick
};

struct SelftestCheck {
  enum class Outcome { kExact, kWrong, kRefused, kFailed };
  std::string name;  // "histogram persistent (auto) bins=256 rgbl"
  Outcome outcome = Outcome::kExact;
  std::string detail;  // exact: the frames; wrong: the first difference; refused/failed: why
  int frames = 0;
  uint64_t pixels = 0;  // processed on the GPU
  double ms = 0;
};
// "exact", "WRONG", "refused", "FAILED".
ESF_API const char* outcomeName(SelftestCheck::Outcome outcome);

// A driver fact that matters to esframe, with whether it is a problem.
struct SelftestFact {
  std::string name;   // "compute limits", "timer queries", "dmabuf import", "program binaries"
  std::string value;  // one line
  bool ok = true;     // false: counts against the verdict (a zero-copy import that came out wrong)
};

struct SelftestResult {
  bool passed = false;  // every check exact or refused, and no fact wrong
  std::vector<SelftestFact> facts;
  std::vector<SelftestCheck> checks;
  double seconds = 0;
  uint64_t pixels = 0;        // processed on the GPU, every check together
  std::string first_failure;  // the first check or fact that failed, one line; "" when passed
  std::string json;           // the report as JSON (docs/selftest-report.schema.json)
  std::string cache_path;     // the tuning cache the verdict went to
  std::string cache_warning;  // what was wrong with the cache file read before (rewritten)
  std::string store_error;    // why the verdict was not stored; "" when it was
};

// Runs the selftest on `gpu` (its context current on this thread; `on_check` sees each check as
// it ends) and stores the verdict in the tuning cache at `cache_path` ("" for
// defaultTuningCachePath(), esframe/tuning.hpp). A verdict that could not be stored is
// SelftestResult::store_error: the checks ran.
ESF_API Result<SelftestResult> runSelftest(
    GpuContext& gpu, const SelftestOptions& options, const std::string& cache_path = "",
    const std::function<void(const SelftestCheck&)>& on_check = {});

// The selftest's verdict on a GPU, as the tuning cache keeps it for this esframe version.
struct SelftestVerdict {
  bool passed = false;
  bool quick = false;
  std::string at;             // when the selftest ran (UTC)
  std::string first_failure;  // empty when passed
  int checks = 0;
  double seconds = 0;
};

// A tuning cache record that decides Backend::kAuto for one stage chain at one size class
// (esframe/tuning.hpp, TuneRequest::backend).
struct TunedBackend {
  std::string chain;       // the stage chain: "histogram", "blur+histogram", ...
  std::string size_class;  // "1920x1080", "larger"
  Backend backend = Backend::kGles;
  std::string reason;  // one line: the times measured
};

// What Backend::kAuto makes of a GPU, without running a selftest.
struct AutoBackendReport {
  Backend backend = Backend::kCpu;  // kGles or kCpu
  std::string reason;               // one line
  // The selftest verdict on this GPU from the tuning cache: absent without a GPU or a verdict.
  std::optional<SelftestVerdict> selftest;
  std::string selftest_summary;     // "passed (quick, 12 checks, ...)", "FAILED: ..."; "" without
  int cpu_threads = 0;              // the CPU executor's threads with PipelineConfig::threads 0
  std::vector<TunedBackend> tuned;  // the tuning cache's records for this GPU
};

// Backend::kAuto's choice given the outcome of opening the GPU (the error says why there is
// none), with the tuning cache at its default path.
ESF_API Result<AutoBackendReport> describeAutoBackend(
    const Result<std::unique_ptr<GpuContext>>& gpu);

struct ProgramCheckOptions {
  bool sweep = false;  // every candidate of the tuning sweeps, not only each family's default
  // Compute shaders from files (GLSL ES 3.10 without the #version line, as glsl_es/ holds
  // them), built and judged instead of esframe's own.
  std::vector<std::string> shader_files;
};

struct CheckedProgramFigures {
  std::string name;                 // "histogram.comp", "graph.vert+graph.frag"
  std::string defines;              // the defines it was built with
  bool default_program = false;     // built by a pipeline with default parameters
  bool refused = false;             // the driver could not compile it
  bool fallback_scheduler = false;  // v3d's last-resort "fallback scheduler"
  std::string strategy;             // v3d: the last strategy it fell back to ("" for the first)
  std::vector<ShaderStatistics> shaders;  // the last statistics of each stage (esframe/gpu.hpp)
  std::vector<std::string> problems;      // empty: fine on this driver
};

struct ProgramCheckResult {
  std::string renderer, version;  // GL_RENDERER, GL_VERSION
  ComputeLimits limits;
  std::vector<CheckedProgramFigures> programs;
  // What could not be set up (a configuration the driver's limits refuse): not a program failure.
  std::vector<std::string> notes;
  int problems = 0;     // programs with problems
  bool passed = false;  // no problems, and every shader file built
};

// Builds every program esframe can use (or `options.shader_files`) on `gpu`'s driver and judges
// what its compiler says: a refusal, v3d's fallback scheduler, spills in a default program or a
// warning is a problem. What the driver writes while building goes into the result, not to
// stderr. The driver's compiler statistics need its program caches off before the GPU is opened
// (ESFRAME_PROGRAM_CACHE=0 and the driver's own, e.g. MESA_SHADER_CACHE_DISABLE=true).
ESF_API Result<ProgramCheckResult> checkPrograms(GpuContext& gpu,
                                                 const ProgramCheckOptions& options);

}  // namespace esf
