// `esframe tune`: sweeps the stages on this GPU for one frame size and stores the fastest
// parameters in the tuning cache that strategy=auto reads (esf::tune, esframe/tune.hpp).
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "apps/esframe/cli_common.hpp"
#include "apps/esframe/commands.hpp"
#include "esframe/base/log.hpp"
#include "esframe/text_parse.hpp"
#include "esframe/tune.hpp"
#include "esframe/tuning.hpp"

namespace esf::cli {
namespace {

struct TuneArgs {
  std::string size = "1920x1080";
  std::string format = "RGBA32";
  std::string stages = "histogram,blur";
  std::string content = "natural";
  std::string cache;
  int iterations = 15;
  bool quick = false;
  bool show = false;
  bool reset = false;
  bool json = false;
};

void printCache(const TuningCacheContents& cache, bool as_json) {
  if (as_json) {
    std::cout << nlohmann::json::parse(cache.json).dump(2) << std::endl;
    return;
  }
  std::printf("tuning cache: %s\n", cache.path.c_str());
  if (cache.records.empty()) std::printf("  (empty)\n");
  for (const TuningRecord& e : cache.records) {
    std::printf("  %s | %s | %s\n", e.gl_vendor.c_str(), e.gl_renderer.c_str(),
                e.gl_version.c_str());
    std::printf("    %-9s %-10s %8.3f ms  tuned %s on %s: %s\n", e.stage.c_str(),
                e.size_class.c_str(), e.median_ms, e.tuned_at.c_str(), e.frame.c_str(),
                e.params_json.c_str());
  }
}

// Runs the sweeps and stores the winners; the result table goes to stdout.
Status tune(const GlobalOptions& global, const TuneArgs& a, const std::string& path) {
  Result<ParsedSize> size = parseSize(a.size, "--size");
  if (!size) return size.error();
  TuneRequest request;
  request.width = size->width;
  request.height = size->height;
  Result<PixelFormat> format = parsePixelFormat(a.format);
  if (!format) return fail(ErrorCode::kInvalidArgument, "--format: ", format.error().message);
  request.format = format.value();
  Result<FrameContent> content = parseFrameContent(a.content);
  if (!content) return fail(ErrorCode::kInvalidArgument, "--content: ", content.error().message);
  request.content = content.value();
  request.histogram = request.blur = request.backend = false;
  for (size_t pos = 0; pos <= a.stages.size();) {
    size_t comma = a.stages.find(',', pos);
    std::string s =
        a.stages.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (s == "histogram")
      request.histogram = true;
    else if (s == "blur")
      request.blur = true;
    else if (s == "backend")
      request.backend = true;
    else
      return fail(ErrorCode::kInvalidArgument, "--stages: unknown stage '", s,
                  "' (histogram, blur, backend)");
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  request.iterations = a.iterations;
  request.quick = a.quick;
  request.cache_path = path;
  Result<std::unique_ptr<GpuContext>> ctx = openGpu(global);
  if (!ctx) return ctx.error();

  TuneObserver observer;
  observer.started = [&](const TuneReport& r) {
    if (!r.cache_warning.empty()) logWarning(r.cache_warning + " (it will be rewritten)");
    std::printf("tuning on %s | %s | %s, %dx%d %s (%s frame), size class %s\n", r.gl_vendor.c_str(),
                r.gl_renderer.c_str(), r.gl_version.c_str(), request.width, request.height,
                formatName(request.format), a.content.c_str(), r.size_class.c_str());
  };
  observer.measured = [](const TuneMeasurement& t) {
    std::printf("  %-9s %8.3f ms median (min %.3f, max %.3f, %d runs, %s): %s\n", t.stage.c_str(),
                t.median_ms, t.min_ms, t.max_ms, t.samples,
                t.gpu_timer ? "GPU timer" : "wall clock", t.choice.c_str());
  };
  observer.compared = [](const BackendMeasurement& b) {
    std::printf("  backend:%-22s gles %8.3f ms, cpu %8.3f ms median per frame: %s\n",
                b.chain.c_str(), b.gles_ms, b.cpu_ms, backendName(b.faster));
  };
  observer.saved = [](const TuneReport& r) { std::printf("saved to %s\n", r.cache_path.c_str()); };
  Result<TuneReport> report = esf::tune(*ctx.value(), request, observer);
  if (!report) return report.error();
  std::printf("selftest of what auto picks: %s, %zu checks in %.1f s\n",
              report->selftest_passed ? "passed" : "FAILED", report->selftest_checks,
              report->selftest_seconds);
  if (!report->selftest_passed)
    return fail(ErrorCode::kGpu,
                "esframe selftest failed on this GPU: ", report->selftest_first_failure,
                " (--backend auto will not use it)");
  return {};
}

}  // namespace

void addTuneCommand(CLI::App& app, GlobalOptions& global) {
  auto* cmd = app.add_subcommand(
      "tune", "Measure stage strategies and workgroup sizes on this GPU; store the fastest");
  auto a = std::make_shared<TuneArgs>();
  cmd->add_option("--size", a->size, "Frame size WIDTHxHEIGHT")->capture_default_str();
  cmd->add_option("--format", a->format, "Source pixel format (the stages see RGBA either way)")
      ->capture_default_str();
  cmd->add_option("--stages", a->stages,
                  "Stages to tune: histogram,blur; backend: GLES against the CPU executor per "
                  "stage chain (--backend auto follows it)")
      ->capture_default_str();
  cmd->add_option("--content", a->content, "Frame content: natural, random, flat, gradient")
      ->capture_default_str();
  cmd->add_option("--iterations", a->iterations, "Timed runs per configuration")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_flag("--quick", a->quick, "A few configurations per sweep (smoke test)");
  cmd->add_option("--cache", a->cache, "Cache file (default $XDG_CACHE_HOME/esframe/tuning.json)");
  cmd->add_flag("--show", a->show, "Print the tuning cache and exit");
  cmd->add_flag("--reset", a->reset, "Delete the tuning cache and exit");
  cmd->add_flag("--json", a->json, "With --show: print the cache as JSON");
  cmd->callback([&global, a]() {
    std::string path = a->cache;
    if (path.empty()) {
      Result<std::string> default_path = defaultTuningCachePath();
      if (!default_path) {
        logError(default_path.error().message);
        throw CLI::RuntimeError(kExitFailure);
      }
      path = default_path.value();
    }
    if (a->reset) {
      if (Status s = removeTuningCache(path); !s) {
        logError(s.error().message);
        throw CLI::RuntimeError(kExitFailure);
      }
      std::printf("removed %s\n", path.c_str());
      return;
    }
    if (a->show) {
      Result<TuningCacheContents> cache = readTuningCache(path);
      if (!cache) {
        logError(cache.error().message);
        throw CLI::RuntimeError(kExitFailure);
      }
      if (!cache->warning.empty()) logWarning(cache->warning);
      printCache(cache.value(), a->json);
      return;
    }
    if (Status s = tune(global, *a, path); !s) {
      logError(s.error().message);
      throw CLI::RuntimeError(kExitFailure);
    }
  });
}

}  // namespace esf::cli

namespace esf::cli {

InfoSection tuningInfoSection() {
  InfoSection s;
  s.key = "tuning";
  s.collect = [](const GlobalOptions& global) {
    nlohmann::json j;
    Result<std::string> path = defaultTuningCachePath();
    Result<TuningCacheContents> cache =
        path ? readTuningCache(path.value()) : Result<TuningCacheContents>(path.error());
    if (!cache) {
      logError(cache.error().message);
      throw CLI::RuntimeError(kExitFailure);
    }
    j["cache"] = path.value();
    j["cache_entries"] = cache->records.size();
    if (!cache->warning.empty()) j["cache_warning"] = cache->warning;
    Result<std::unique_ptr<GpuContext>> ctx = openGpu(global);
    if (!ctx) return j;
    Result<std::vector<StrategyAutoChoice>> choices =
        strategyAutoChoices(*ctx.value(), path.value());
    if (!choices) {
      logError(choices.error().message);
      throw CLI::RuntimeError(kExitFailure);
    }
    nlohmann::json list = nlohmann::json::array();
    for (const StrategyAutoChoice& c : *choices)
      list.push_back({{"size_class", c.size_class}, {"histogram", c.histogram}, {"blur", c.blur}});
    j["strategy_auto"] = list;
    return j;
  };
  s.print_text = [](const nlohmann::json& j) {
    std::string out = "tuning (strategy=auto):\n";
    out += "  cache: " + j["cache"].get<std::string>() + " (" + j["cache_entries"].dump() +
           " entries)\n";
    if (j.contains("cache_warning"))
      out += "  warning: " + j["cache_warning"].get<std::string>() + "\n";
    if (j.contains("strategy_auto")) {
      for (const auto& c : j["strategy_auto"]) {
        out += "  " + c["size_class"].get<std::string>() + ":\n";
        out += "    " + c["histogram"].get<std::string>() + "\n";
        out += "    " + c["blur"].get<std::string>() + "\n";
      }
    }
    return out;
  };
  return s;
}

}  // namespace esf::cli
