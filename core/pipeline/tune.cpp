// esf::tune (esframe/tune.hpp): the sweeps, the backend comparison and the selftest of what
// strategy=auto then picks, each stored in the tuning cache.
#include "esframe/tune.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include "base/api_guard.hpp"
#include "base/pixel_format.hpp"
#include "capture/frame_encode.hpp"
#include "core/pipeline/selftest.hpp"
#include "core/pipeline/selftest_verdict.hpp"
#include "core/tuning/backend_comparison.hpp"
#include "core/tuning/progress.hpp"
#include "core/tuning/sweep.hpp"
#include "core/tuning/synthetic_frames.hpp"
#include "core/tuning/tuned_params.hpp"
#include "core/tuning/tuning_cache.hpp"
#include "esframe/pipeline.hpp"
#include "platform/gpu_context_access.hpp"

namespace esf {
namespace {

// Each stage chain as whole frames through Pipeline::process on the GLES stages and on the CPU
// executor (blur 15 taps, resize to half size: the chains' usual costs), the faster stored per
// chain for this size class; Backend::kAuto follows it.
Status compareBackendsOnChains(const GpuConfig& gpu, const RgbaImage& image, PixelFormat format,
                               const MeasureOptions& m, const DeviceKey& device, TuningCache& cache,
                               TuneReport& report, const TuneObserver& observer) {
  Result<std::vector<uint8_t>> bytes = encodeRgba(image, format, {});
  if (!bytes) return bytes.error();
  Frame frame;
  frame.format = format, frame.width = image.width, frame.height = image.height;
  if (Status s = attachTightPlanes(frame, bytes->data(), bytes->size()); !s) return s;
  for (auto [blur, resize] : {std::pair{false, false}, {true, false}, {false, true}}) {
    PipelineConfig config;
    config.gpu = gpu;
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
    report.backends.push_back(
        {chain, r->gles_ms, r->cpu_ms, r->backend == "cpu" ? Backend::kCpu : Backend::kGles});
    if (observer.compared) observer.compared(report.backends.back());
  }
  return {};
}

Result<TuneReport> tuneGpu(GpuContext& gpu, const TuneRequest& request,
                           const TuneObserver& observer) {
  const int w = request.width, h = request.height;
  GlContext& gl = GpuContextAccess::gl(gpu);
  TuneReport report;
  report.cache_path = request.cache_path.empty() ? TuningCache::defaultPath() : request.cache_path;
  TuningCache cache = TuningCache::load(report.cache_path, &report.cache_warning);
  const DeviceKey device = DeviceKey::of(gl);
  report.gl_vendor = device.vendor;
  report.gl_renderer = device.renderer;
  report.gl_version = device.driver;
  report.size_class = sizeClass(w, h);
  // The stages run on the RGBA working image: the source format only changes the import
  // before them, so the frame tuned with is RGBA of the requested size.
  RgbaImage frame = syntheticFrame(request.content, w, h);
  TuneOptions o;
  o.quick = request.quick;
  o.measure.iterations = request.iterations;
  o.measure.budget_s = request.quick ? 0.2 : 0.6;
  o.measure.warmup_s = request.quick ? 0 : 0.1;
  if (observer.started) observer.started(report);
  const std::string frame_size = std::to_string(w) + "x" + std::to_string(h);
  auto store = [&](const char* stage, nlohmann::json params, const TimingStats& t,
                   std::string choice) {
    cache.put({device, report.size_class, stage, std::move(params), t.median_ms, frame_size,
               utcTimestamp()});
    report.stages.push_back(
        {stage, t.median_ms, t.min_ms, t.max_ms, t.samples, t.timer_query, std::move(choice)});
    if (observer.measured) observer.measured(report.stages.back());
  };
  if (request.histogram) {
    Progress progress("histogram", 0);
    o.progress = &progress;
    Result<HistogramTuneResult> r = tuneHistogram(gl, frame, HistogramParams{}, o);
    progress.done();
    if (!r) return r.error();
    store("histogram", tunedFieldsToJson(r.value().best), r.value().best_stats,
          describe(r.value().best));
  }
  if (request.blur) {
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
  if (request.backend) {
    if (Status s = compareBackendsOnChains(gpu.config(), frame, request.format, o.measure, device,
                                           cache, report, observer);
        !s)
      return s.error();
  }
  if (Status s = cache.save(); !s) return s.error();
  if (observer.saved) observer.saved(report);
  // What strategy=auto now picks, at the tuned size, against the CPU references. The backend
  // comparison's pipelines had their own contexts current: this one again.
  if (Status s = gl.makeCurrent(); !s) return s.error();
  SelftestOptions check;
  check.quick = request.quick;
  check.large = Size{w, h};
  const SelftestReport selftest = runSelftest(gl, check);
  cache.put(verdictEntry(selftest));
  if (Status s = cache.save(); !s) return s.error();
  report.selftest_passed = selftest.passed();
  report.selftest_checks = selftest.checks.size();
  report.selftest_seconds = selftest.seconds;
  report.selftest_first_failure = selftest.firstFailure();
  return report;
}

}  // namespace

Result<TuneReport> tune(GpuContext& gpu, const TuneRequest& request, const TuneObserver& observer) {
  return guard("tune", [&] { return tuneGpu(gpu, request, observer); });
}

}  // namespace esf
