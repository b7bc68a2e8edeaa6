// The public GPU checks (esframe/gpu_checks.hpp) over the selftest, the program check and
// Backend::kAuto's choice.
#include "esframe/gpu_checks.hpp"

#include <utility>

#include "base/api_guard.hpp"
#include "core/cpu/row_pool.hpp"
#include "core/pipeline/backend_choice.hpp"
#include "core/pipeline/program_check.hpp"
#include "core/pipeline/selftest.hpp"
#include "core/pipeline/selftest_verdict.hpp"
#include "core/tuning/tuning_cache.hpp"
#include "esframe/text_parse.hpp"
#include "platform/gpu_context_access.hpp"
#include "platform/shader_library.hpp"

namespace esf {
namespace {

// The tuning cache's backend records for this GPU: what kAuto picks, per stage chain, for frames
// of each tuned size class instead of the rule.
std::vector<TunedBackend> tunedBackends(const TuningCache& cache, const DeviceKey& device) {
  std::vector<TunedBackend> tuned;
  for (const CacheEntry& e : cache.entries()) {
    if (!(e.device == device) || e.stage.rfind("backend:", 0) != 0) continue;
    PipelineConfig config;
    const std::string chain = e.stage.substr(8);
    if (chain.find("blur") != std::string::npos) config.blur = BlurConfig{1, 1};
    if (chain.find("resize") != std::string::npos) config.resize = Size{1, 1};
    if (chain.find("scopes") != std::string::npos) config.scopes.waveform = true;
    if (stageChainOf(config) != chain) continue;  // not a chain this version makes
    Result<ParsedSize> size =
        e.size_class == "larger" ? ParsedSize{7680, 4320} : parseSize(e.size_class, "size class");
    if (!size) continue;  // not a size class: never matched
    const BackendChoice c =
        chooseTunedBackend({}, cache, device, config, size->width, size->height);
    if (c.reason.rfind("the tuning cache", 0) != 0) continue;  // a malformed record
    tuned.push_back({chain, e.size_class, c.backend, c.reason});
  }
  return tuned;
}

}  // namespace

Result<SelftestResult> runSelftest(GpuContext& gpu, const SelftestOptions& options,
                                   const std::string& cache_path,
                                   const std::function<void(const SelftestCheck&)>& on_check) {
  return guard("runSelftest", [&]() -> Result<SelftestResult> {
    const SelftestReport report = runSelftest(GpuContextAccess::gl(gpu), options, on_check);
    SelftestResult r;
    r.passed = report.passed();
    r.facts = report.facts;
    r.checks = report.checks;
    r.seconds = report.seconds;
    r.pixels = report.pixels();
    r.first_failure = report.firstFailure();
    r.json = selftestJson(report).dump();
    r.cache_path = cache_path.empty() ? TuningCache::defaultPath() : cache_path;
    TuningCache cache = TuningCache::load(r.cache_path, &r.cache_warning);
    cache.put(verdictEntry(report));
    if (Status saved = cache.save(); !saved) r.store_error = saved.error().message;
    return r;
  });
}

Result<AutoBackendReport> describeAutoBackend(const Result<std::unique_ptr<GpuContext>>& gpu) {
  return guard("describeAutoBackend", [&]() -> Result<AutoBackendReport> {
    AutoBackendReport r;
    r.cpu_threads = RowPool::defaultThreads();
    if (!gpu) {
      const BackendChoice choice = chooseAutoBackendWithoutGpu(gpu.error());
      r.backend = choice.backend;
      r.reason = choice.reason;
      return r;
    }
    GlContext& gl = GpuContextAccess::gl(*gpu.value());
    std::string warning;
    const TuningCache cache = TuningCache::load(TuningCache::defaultPath(), &warning);
    const DeviceKey device = DeviceKey::of(gl);
    r.selftest = findVerdict(cache, device);
    if (r.selftest) r.selftest_summary = describeVerdict(*r.selftest);
    // What auto makes of the verdict, without running a selftest.
    const BackendChoice choice = checkAutoChoice(chooseAutoBackend(gl), gl, false);
    r.backend = choice.backend;
    r.reason = choice.reason;
    r.tuned = tunedBackends(cache, device);
    return r;
  });
}

Result<ProgramCheckResult> checkPrograms(GpuContext& gpu, const ProgramCheckOptions& options) {
  return guard("checkPrograms", [&]() -> Result<ProgramCheckResult> {
    ShaderLibrary::setQuietDriver(true);
    const ProgramCheckReport report =
        checkPrograms(GpuContextAccess::gl(gpu), gpu.config(), options);
    ShaderLibrary::setQuietDriver(false);
    ProgramCheckResult r;
    r.renderer = report.renderer;
    r.version = report.version;
    r.limits = report.limits;
    for (const CheckedProgram& p : report.programs) {
      CheckedProgramFigures f;
      f.name = p.report.name;
      f.defines = p.report.defines;
      f.default_program = p.default_program;
      f.refused = p.report.verdict.refused;
      f.fallback_scheduler = p.report.verdict.fallback;
      f.strategy = p.report.verdict.strategy;
      f.shaders = p.report.verdict.shaders;
      f.problems = p.problems;
      r.programs.push_back(std::move(f));
    }
    r.notes = report.notes;
    r.problems = report.problemCount();
    r.passed = report.passed();
    return r;
  });
}

}  // namespace esf
