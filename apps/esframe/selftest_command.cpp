// `esframe selftest`: the GPU that `run` would use, checked stage by stage against the CPU
// references (esf::runSelftest, esframe/gpu_checks.hpp); the verdict goes into the tuning cache,
// where `--backend auto` reads it.
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "apps/esframe/cli_common.hpp"
#include "apps/esframe/commands.hpp"
#include "esframe/base/log.hpp"
#include "esframe/gpu_checks.hpp"
#include "esframe/text_parse.hpp"

namespace esf::cli {
namespace {

struct SelftestArgs {
  bool quick = false;
  bool all = false;
  bool json = false;
  std::string size;  // "" for the default
  std::string cache;
};

void printCheck(const SelftestCheck& c) {
  std::printf("%-8s %-58s %9.1f ms  %s\n", outcomeName(c.outcome), c.name.c_str(), c.ms,
              c.detail.c_str());
  std::fflush(stdout);
}

int selftest(const GlobalOptions& global, const SelftestArgs& a) {
  SelftestOptions options;
  options.quick = a.quick;
  options.all_strategies = a.all;
  if (!a.size.empty()) {
    Result<ParsedSize> size = parseSize(a.size, "--size");
    if (!size) throw CLI::ValidationError(size.error().message);
    options.large = Size{size->width, size->height};
  }
  Result<std::unique_ptr<GpuContext>> ctx = openGpu(global);
  Result<GpuInfo> gpu = ctx ? ctx.value()->info() : Result<GpuInfo>(ctx.error());
  if (!gpu) {
    logError(gpu.error().message);
    return kExitFailure;
  }
  if (!a.json)
    std::printf("selftest on %s | %s (%s EGL)%s\n", gpu->gl_renderer.c_str(),
                gpu->gl_version.c_str(), toString(gpu->platform), a.quick ? ", quick" : "");
  Result<SelftestResult> report =
      runSelftest(*ctx.value(), options, a.cache,
                  a.json ? std::function<void(const SelftestCheck&)>() : printCheck);
  if (!report) {
    logError(report.error().message);
    return kExitFailure;
  }
  if (!report->cache_warning.empty()) logWarning(report->cache_warning + " (it will be rewritten)");
  if (a.json) {
    std::cout << nlohmann::json::parse(report->json).dump(2) << std::endl;
  } else {
    for (const SelftestFact& f : report->facts)
      std::printf("%-8s %s: %s\n", f.ok ? "fact" : "WRONG", f.name.c_str(), f.value.c_str());
    int exact = 0, refused = 0;
    for (const SelftestCheck& c : report->checks) {
      exact += c.outcome == SelftestCheck::Outcome::kExact;
      refused += c.outcome == SelftestCheck::Outcome::kRefused;
    }
    std::printf("selftest: %s: %d of %zu checks exact, %d refused, %.1f Mpx on the GPU in %.1f s\n",
                report->passed ? "PASSED" : "FAILED", exact, report->checks.size(), refused,
                double(report->pixels) / 1e6, report->seconds);
    if (!report->passed) std::printf("first failure: %s\n", report->first_failure.c_str());
  }
  if (report->store_error.empty())
    logInfo("selftest: verdict stored in " + report->cache_path);
  else
    logWarning("selftest: verdict not stored: " + report->store_error);
  return report->passed ? kExitOk : kExitFailure;
}

}  // namespace

void addSelftestCommand(CLI::App& app, GlobalOptions& global) {
  auto* cmd = app.add_subcommand(
      "selftest",
      "Check this GPU's stages against the CPU references, bit for bit (exit 0: all exact); "
      "the verdict is stored for --backend auto");
  auto a = std::make_shared<SelftestArgs>();
  cmd->add_flag("--quick", a->quick, "Small frames, the common formats: a few seconds on a Pi");
  cmd->add_flag("--all", a->all, "Every histogram strategy, not only what auto picks here");
  cmd->add_flag("--json", a->json, "Print the report as one JSON object (attach it to a bug)");
  cmd->add_option("--size", a->size,
                  "The large frame WIDTHxHEIGHT (default 1920x1080; quick 640x480)");
  cmd->add_option("--cache", a->cache,
                  "Tuning cache file for the verdict (default "
                  "$XDG_CACHE_HOME/esframe/tuning.json)");
  cmd->callback([&global, a]() {
    const int status = selftest(global, *a);
    if (status != kExitOk) throw CLI::RuntimeError(status);
  });
}

}  // namespace esf::cli
