#include "esframe/pipeline.hpp"

#include <atomic>

#include "base/api_guard.hpp"
#include "capture/libcamera_source.hpp"
#include "capture/network_source.hpp"
#include "capture/open_source.hpp"
#include "core/import/gbm_dmabuf_allocator.hpp"
#include "core/pipeline/backend_choice.hpp"
#include "core/pipeline/pipeline_impl.hpp"
#include "core/pipeline/selftest_verdict.hpp"
#include "core/tuning/backend_comparison.hpp"
#include "esframe/base/log.hpp"
#include "esframe/base/sizes.hpp"
#include "platform/shader_library.hpp"

namespace esf {

Pipeline::Pipeline(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Pipeline::~Pipeline() = default;

namespace {

// kAuto's decision, on stderr once per process: a warning when the GPU path is off (worth
// knowing on a board that has a GPU), info when the GPU takes the stages.
void logAutoChoiceOnce(const BackendChoice& choice) {
  static std::atomic<bool> logged{false};
  if (logged.exchange(true)) return;
  const std::string line =
      std::string("backend auto: ") + backendName(choice.backend) + ", " + choice.reason;
  if (choice.backend == Backend::kGles)
    logInfo(line);
  else
    logWarning(line);
}

Result<std::unique_ptr<PipelineBackend>> createBackend(Pipeline::Impl& impl) {
  return impl.backend_kind == Backend::kGles  ? createGpuBackend(*impl.gl, impl.config)
         : impl.backend_kind == Backend::kCpu ? createCpuExecutorBackend(impl.config)
                                              : createReferenceBackend(impl.config);
}

}  // namespace

bool fallBackToExecutor(Pipeline::Impl& impl, const Error& error) {
  if (impl.config.backend != Backend::kAuto || impl.backend_kind != Backend::kGles ||
      impl.delivered || !isDriverRefusal(error))
    return false;
  Result<std::unique_ptr<PipelineBackend>> executor = createCpuExecutorBackend(impl.config);
  if (!executor) return false;
  impl.backend_kind = Backend::kCpu;
  impl.choice_reason = error.message;
  logWarning("backend auto: cpu, " + error.message);
  impl.backend = std::move(executor.value());
  if (!impl.dmabuf_allocator) impl.gl.reset();
  return true;
}

Status ensureBackend(Pipeline::Impl& impl, const Frame& frame) {
  if (impl.backend) return Status::success();
  const BackendChoice choice = checkAutoChoice(
      chooseTunedBackend({impl.backend_kind, impl.choice_reason}, *impl.tuning,
                         DeviceKey::of(*impl.gl), impl.config, frame.width, frame.height),
      *impl.gl, impl.config.gpu.selftest);
  logAutoChoiceOnce(choice);
  impl.backend_kind = choice.backend;
  impl.choice_reason = choice.reason;
  impl.tuning.reset();
  Result<std::unique_ptr<PipelineBackend>> backend = createBackend(impl);
  if (!backend) {
    if (fallBackToExecutor(impl, backend.error())) return Status::success();
    return backend.error();
  }
  impl.backend = std::move(backend.value());
  if (impl.backend_kind != Backend::kGles && !impl.dmabuf_allocator) impl.gl.reset();
  return Status::success();
}

Result<std::unique_ptr<Pipeline>> Pipeline::create(const PipelineConfig& config) {
  return guard("pipeline create", [&]() -> Result<std::unique_ptr<Pipeline>> {
    if (Status s = config.validate(); !s) return s.error();
    auto impl = std::make_unique<Impl>();
    impl->config = config;
    impl->backend_kind = config.backend;
    if (config.backend == Backend::kAuto) {
      Result<std::unique_ptr<GlContext>> gl = GlContext::create(glContextOptions(config));
      BackendChoice choice = chooseAutoBackend(gl);
      std::string warning;
      TuningCache cache = TuningCache::load(TuningCache::defaultPath(), &warning);
      if (gl && hasBackendRecords(cache, DeviceKey::of(*gl.value()), stageChainOf(config))) {
        if (!warning.empty()) logWarning(warning);
        impl->backend_kind = choice.backend;
        impl->choice_reason = choice.reason;
        impl->gl = std::move(gl.value());  // the first frame decides (ensureBackend)
        impl->tuning = std::move(cache);
        return std::unique_ptr<Pipeline>(new Pipeline(std::move(impl)));
      }
      if (gl) choice = checkAutoChoice(choice, *gl.value(), config.gpu.selftest);
      impl->backend_kind = choice.backend;
      impl->choice_reason = choice.reason;
      logAutoChoiceOnce(choice);
      if (choice.backend == Backend::kGles) impl->gl = std::move(gl.value());
    } else if (config.backend == Backend::kGles) {
      Result<std::unique_ptr<GlContext>> gl = GlContext::create(glContextOptions(config));
      if (!gl) return gl.error();
      impl->gl = std::move(gl.value());
    }
    Result<std::unique_ptr<PipelineBackend>> backend = createBackend(*impl);
    if (!backend && !fallBackToExecutor(*impl, backend.error())) return backend.error();
    if (backend) impl->backend = std::move(backend.value());
    return std::unique_ptr<Pipeline>(new Pipeline(std::move(impl)));
  });
}

const PipelineConfig& Pipeline::config() const {
  return impl_->config;
}

Backend Pipeline::backend() const {
  return impl_->backend_kind;
}

std::string Pipeline::deviceDescription() const {
  if (!impl_->backend)
    return "auto: the tuning cache decides at the first frame (without a record: " +
           std::string(backendName(impl_->backend_kind)) + ")";
  if (impl_->gl && impl_->backend_kind == Backend::kGles)
    return "gles: " + impl_->gl->renderer() + ", " + impl_->gl->version();
  if (impl_->backend_kind == Backend::kCpu)
    return "cpu: the executor, " + std::to_string(impl_->backend->threads()) + " threads";
  return "reference: the plain CPU references";
}

std::string Pipeline::backendDescription() const {
  std::string d = deviceDescription();
  if (!impl_->choice_reason.empty()) d += " (auto: " + impl_->choice_reason + ")";
  return d;
}

Result<std::unique_ptr<FrameSource>> Pipeline::openSource(const std::string& spec,
                                                          const SourceConfig& config) {
  return guard("open source", [&]() -> Result<std::unique_ptr<FrameSource>> {
    SourceOptions options;
    static_cast<SourceConfig&>(options) = config;
    // Zero-copy buffers only for a decided GPU backend: the executor reads frames in CPU memory.
    // A network stream's decoder hands out dmabufs only with expbuf I/O.
    const bool zero_copy_source = isV4l2Spec(spec) || isLibcameraSpec(spec) ||
                                  (isNetworkSpec(spec) && config.io == IoMode::kExpbuf);
    if (impl_->gl && impl_->backend && impl_->backend_kind == Backend::kGles &&
        config.io != IoMode::kMmap && !impl_->dmabuf_allocator && zero_copy_source) {
      Result<std::unique_ptr<DmabufAllocator>> allocator = createGbmDmabufAllocator(*impl_->gl);
      if (allocator)
        impl_->dmabuf_allocator = std::move(allocator.value());
      else if (config.io != IoMode::kAuto)  // kAuto falls back to mmap; an explicit mode says why
        return allocator.error();
    }
    options.dmabuf_allocator = impl_->dmabuf_allocator.get();
    Result<std::unique_ptr<FrameSource>> source = esf::openSource(spec, options);
    if (!source) return source.error();
    return std::unique_ptr<FrameSource>(std::make_unique<GuardedSource>(std::move(source.value())));
  });
}

namespace {

// Another context may have been made current on this thread since (an application's own, a
// second pipeline's): the stages' GL calls must reach this one.
Status makeCurrent(Pipeline::Impl& impl) {
  if (impl.gl && eglGetCurrentContext() != impl.gl->eglContext()) return impl.gl->makeCurrent();
  return Status::success();
}

}  // namespace

HostFigures countHostFigures(Pipeline::Impl& impl, const Frame& frame) {
  HostFigures f;
  const PipelineConfig& c = impl.config;
  if (c.signalstats && impl.backend && impl.backend->countsSignalstats(frame)) {
    if ((c.signalstats_tout || c.signalstats_vrep) && !impl.backend->countsLumaSignalstats(frame))
      f.signalstats = lumaSignalstats(frame, c.signalstats_tout, c.signalstats_vrep);
  } else if (c.signalstats) {
    f.signalstats = impl.signalstats.count(frame, c.signalstats_tout, c.signalstats_vrep);
  }
  if (c.detect.any()) {
    if (!impl.detectors) impl.detectors.emplace(c.detect);
    f.detect = impl.detectors->count(
        frame, impl.backend ? impl.backend->detectorsCounted(frame) : DetectorsCounted{});
  }
  return f;
}

Result<std::vector<HealthEvent>> Pipeline::endStream() {
  return guard("pipeline end of stream", [&]() -> Result<std::vector<HealthEvent>> {
    std::vector<HealthEvent> events;
    if (impl_->backend) impl_->backend->endStream(events);
    return events;
  });
}

Result<FrameResult> Pipeline::process(const Frame& frame) {
  return guard("pipeline process", [&]() -> Result<FrameResult> {
    if (Status s = makeCurrent(*impl_); !s) return s.error();
    if (Status s = ensureBackend(*impl_, frame); !s) return s.error();
    auto process = [&]() -> Result<FrameResult> {
      if (Status s = impl_->backend->configureFor(frame); !s) return s.error();
      return impl_->backend->process(frame);
    };
    Result<FrameResult> result = process();
    if (!result && fallBackToExecutor(*impl_, result.error())) result = process();
    impl_->delivered = impl_->delivered || result;
    if (result) countHostFigures(*impl_, frame).moveInto(*result);
    return result;
  });
}

Status submitFrame(Pipeline& pipeline, const Frame& frame) {
  Pipeline::Impl& impl = PipelineAccess::impl(pipeline);
  if (Status s = makeCurrent(impl); !s) return s;
  if (Status s = ensureBackend(impl, frame); !s) return s;
  auto submit = [&]() -> Status {
    if (Status s = impl.backend->configureFor(frame); !s) return s;
    return impl.backend->submit(frame);
  };
  Status submitted = submit();
  if (!submitted && fallBackToExecutor(impl, submitted.error())) submitted = submit();
  impl.delivered = impl.delivered || submitted;
  // Counted while the frame's memory is still the caller's (submit lets it go on return).
  if (submitted) impl.submitted_host = countHostFigures(impl, frame);
  return submitted;
}

Status stageFrame(Pipeline& pipeline, const Frame& frame) {
  Pipeline::Impl& impl = PipelineAccess::impl(pipeline);
  if (!impl.backend) return Status::success();  // nothing submitted yet
  if (Status s = makeCurrent(impl); !s) return s;
  return impl.backend->stage(frame);
}

void settleStagedFrame(Pipeline& pipeline) {
  Pipeline::Impl& impl = PipelineAccess::impl(pipeline);
  if (!impl.backend) return;
  // Waited for even where the context cannot be made current (its unmaps are then lost with it).
  (void)makeCurrent(impl);
  impl.backend->settle();
}

Result<FrameResult> collectFrame(Pipeline& pipeline) {
  Pipeline::Impl& impl = PipelineAccess::impl(pipeline);
  if (Status s = makeCurrent(impl); !s) return s.error();
  if (!impl.backend) return fail(ErrorCode::kInternal, "pipeline: collect() without a submit()");
  Result<FrameResult> result = impl.backend->collect();
  if (result) impl.submitted_host.moveInto(*result);
  impl.submitted_host = HostFigures{};
  return result;
}

}  // namespace esf
