// `esframe tune`: sweeps the stages on this GPU for one frame size and stores the fastest
// parameters in the tuning cache that strategy=auto reads (core/tuning/auto_params.hpp).
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "apps/esframe/cli_common.hpp"
#include "apps/esframe/commands.hpp"
#include "base/pixel_format.hpp"
#include "base/text_parse.hpp"
#include "capture/frame_encode.hpp"
#include "core/pipeline/selftest_verdict.hpp"
#include "core/tuning/auto_params.hpp"
#include "core/tuning/backend_comparison.hpp"
#include "core/tuning/sweep.hpp"
#include "core/tuning/synthetic_frames.hpp"
#include "core/tuning/tuned_params.hpp"
#include "core/tuning/tuning_cache.hpp"
#include "esframe/base/log.hpp"
#include "esframe/pipeline.hpp"

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

void printCache(const TuningCache& cache, bool as_json) {
  if (as_json) {
    std::cout << cache.toJson().dump(2) << std::endl;
    return;
  }
  std::printf("tuning cache: %s\n", cache.path().c_str());
  if (cache.entries().empty()) std::printf("  (empty)\n");
  for (const CacheEntry& e : cache.entries()) {
    std::printf("  %s | %s | %s\n", e.device.vendor.c_str(), e.device.renderer.c_str(),
                e.device.driver.c_str());
    std::printf("    %-9s %-10s %8.3f ms  tuned %s on %s: %s\n", e.stage.c_str(),
                e.size_class.c_str(), e.median_ms, e.tuned_at.c_str(), e.frame.c_str(),
                e.params.dump().c_str());
  }
}

// Stage "backend": each stage chain as whole frames through Pipeline::process on the GLES stages
// and on the CPU executor (blur 15 taps, resize to half size: the chains' usual costs), the
// faster stored per chain for this size class; --backend auto follows it.
Status compareBackendsOnChains(const GlobalOptions& global, const RgbaImage& image,
                               PixelFormat format, const MeasureOptions& m, const DeviceKey& device,
                               TuningCache& cache) {
  Result<std::vector<uint8_t>> bytes = encodeRgba(image, format, {});
  if (!bytes) return bytes.error();
  Frame frame;
  frame.format = format, frame.width = image.width, frame.height = image.height;
  if (Status s = attachTightPlanes(frame, bytes->data(), bytes->size()); !s) return s;
  Result<GpuConfig> gpu = gpuConfig(global);
  if (!gpu) return gpu.error();
  for (auto [blur, resize] : {std::pair{false, false}, {true, false}, {false, true}}) {
    PipelineConfig config;
    config.gpu = gpu.value();
    if (blur) config.blur = BlurConfig{15, 1};
    if (resize) config.resize = Size{std::max(1, image.width / 2), std::max(1, image.height / 2)};
    std::unique_ptr<Pipeline> on[2];
    for (int i = 0; i < 2; ++i) {
      config.backend = i == 0 ? Backend::kGles : Backend::kCpu;
      Result<std::unique_ptr<Pipeline>> p = Pipeline::create(config);
      if (!p) return p.error();
      on[i] = std::move(p.value());
    }
    auto runOn = [&](Pipeline& p) {
      return [&frame, &p]() -> Status {
        Result<FrameResult> r = p.process(frame);
        return r ? Status::success() : Status(r.error());
      };
    };
    Result<BackendRecord> r = compareBackends(m, runOn(*on[0]), runOn(*on[1]));
    if (!r) return r.error();
    const std::string chain = stageChain(blur, resize);
    cache.put(backendEntry(device, chain, image.width, image.height, r.value()));
    std::printf("  backend:%-22s gles %8.3f ms, cpu %8.3f ms median per frame: %s\n", chain.c_str(),
                r->gles_ms, r->cpu_ms, r->backend.c_str());
  }
  return {};
}

// Runs the sweeps and stores the winners; the result table goes to stdout.
Status tune(const GlobalOptions& global, const TuneArgs& a, const std::string& path) {
  Result<ParsedSize> size = parseSize(a.size, "--size");
  if (!size) return size.error();
  const int w = size->width, h = size->height;
  Result<PixelFormat> format = parsePixelFormat(a.format);
  if (!format) return fail(ErrorCode::kInvalidArgument, "--format: ", format.error().message);
  Result<FrameContent> content = parseFrameContent(a.content);
  if (!content) return fail(ErrorCode::kInvalidArgument, "--content: ", content.error().message);
  bool do_hist = false, do_blur = false, do_backend = false;
  for (size_t pos = 0; pos <= a.stages.size();) {
    size_t comma = a.stages.find(',', pos);
    std::string s =
        a.stages.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (s == "histogram")
      do_hist = true;
    else if (s == "blur")
      do_blur = true;
    else if (s == "backend")
      do_backend = true;
    else
      return fail(ErrorCode::kInvalidArgument, "--stages: unknown stage '", s,
                  "' (histogram, blur, backend)");
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  Result<std::unique_ptr<GlContext>> ctx = createContext(global);
  if (!ctx) return ctx.error();
  const GlContext& gl = *ctx.value();
  std::string warning;
  TuningCache cache = TuningCache::load(path, &warning);
  if (!warning.empty()) logWarning(warning + " (it will be rewritten)");

  // The stages run on the RGBA working image: the source format only changes the import
  // before them, so the frame tuned with is RGBA of the named size.
  RgbaImage frame = syntheticFrame(content.value(), w, h);
  TuneOptions o;
  o.quick = a.quick;
  o.measure.iterations = a.iterations;
  o.measure.budget_s = a.quick ? 0.2 : 0.6;
  o.measure.warmup_s = a.quick ? 0 : 0.1;
  DeviceKey device = DeviceKey::of(gl);
  std::printf("tuning on %s | %s | %s, %dx%d %s (%s frame), size class %s\n", device.vendor.c_str(),
              device.renderer.c_str(), device.driver.c_str(), w, h, formatName(format.value()),
              a.content.c_str(), sizeClass(w, h).c_str());
  auto store = [&](const char* stage, nlohmann::json params, const TimingStats& t,
                   const std::string& what) {
    cache.put(
        {device, sizeClass(w, h), stage, std::move(params), t.median_ms, a.size, utcTimestamp()});
    std::printf("  %-9s %8.3f ms median (min %.3f, max %.3f, %d runs, %s): %s\n", stage,
                t.median_ms, t.min_ms, t.max_ms, t.samples,
                t.timer_query ? "GPU timer" : "wall clock", what.c_str());
  };
  if (do_hist) {
    Progress progress("histogram", 0);
    o.progress = &progress;
    Result<HistogramTuneResult> r = tuneHistogram(gl, frame, HistogramParams{}, o);
    progress.done();
    if (!r) return r.error();
    store("histogram", tunedFieldsToJson(r.value().best), r.value().best_stats,
          describe(r.value().best));
  }
  if (do_blur) {
    Progress progress("blur", 0);
    o.progress = &progress;
    BlurParams base;
    base.iterations = 1;
    Result<BlurTuneResult> r = tuneBlur(gl, frame, base, o);
    progress.done();
    if (!r) return r.error();
    store("blur", tunedFieldsToJson(r.value().best), r.value().best_stats,
          describe(r.value().best));
  }
  if (do_backend) {
    if (Status s = compareBackendsOnChains(global, frame, format.value(), o.measure, device, cache);
        !s)
      return s;
  }
  if (Status s = cache.save(); !s) return s;
  std::printf("saved to %s\n", path.c_str());
  // What strategy=auto now picks, at the tuned size, against the CPU references: a fast
  // configuration that counts wrong must not be trusted. The verdict is stored beside it.
  // The backend comparison's pipelines had their own contexts current: this one again.
  if (Status s = ctx.value()->makeCurrent(); !s) return s;
  SelftestOptions check;
  check.quick = a.quick;
  check.large = Size{w, h};
  const SelftestReport report = runSelftest(*ctx.value(), check);
  cache.put(verdictEntry(report));
  if (Status s = cache.save(); !s) return s;
  std::printf("selftest of what auto picks: %s, %zu checks in %.1f s\n",
              report.passed() ? "passed" : "FAILED", report.checks.size(), report.seconds);
  if (!report.passed())
    return fail(ErrorCode::kGpu, "esframe selftest failed on this GPU: ", report.firstFailure(),
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
    std::string path = a->cache.empty() ? TuningCache::defaultPath() : a->cache;
    if (a->reset) {
      if (Status s = TuningCache::reset(path); !s) {
        logError(s.error().message);
        throw CLI::RuntimeError(kExitFailure);
      }
      std::printf("removed %s\n", path.c_str());
      return;
    }
    if (a->show) {
      std::string warning;
      TuningCache cache = TuningCache::load(path, &warning);
      if (!warning.empty()) logWarning(warning);
      printCache(cache, a->json);
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
    std::string path = TuningCache::defaultPath();
    std::string warning;
    TuningCache cache = TuningCache::load(path, &warning);
    j["cache"] = path;
    j["cache_entries"] = cache.entries().size();
    if (!warning.empty()) j["cache_warning"] = warning;
    Result<std::unique_ptr<GlContext>> ctx = createContext(global);
    if (!ctx) return j;
    nlohmann::json choices = nlohmann::json::array();
    for (auto [w, h] : {std::pair{640, 480}, {1280, 720}, {1920, 1080}, {3840, 2160}}) {
      std::string why_h, why_b;
      chooseHistogramParams(*ctx.value(), w, h, &why_h, HistogramParams{}, path);
      chooseBlurParams(*ctx.value(), w, h, &why_b, BlurParams{}, path);
      choices.push_back({{"size_class", sizeClass(w, h)}, {"histogram", why_h}, {"blur", why_b}});
    }
    j["strategy_auto"] = choices;
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
