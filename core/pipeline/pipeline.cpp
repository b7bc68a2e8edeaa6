#include "esframe/pipeline.hpp"

#include "capture/source.hpp"
#include "core/import/gbm_dmabuf_allocator.hpp"
#include "core/pipeline/pipeline_impl.hpp"
#include "core/stages/channels.hpp"
#include "esframe/version.hpp"

namespace esf {

const char* libraryVersion() {
  return ESFRAME_VERSION_STRING;
}

const char* backendName(Backend backend) {
  return backend == Backend::kCpu ? "cpu" : "gles";
}

const char* lumaSourceName(LumaSource luma) {
  return luma == LumaSource::kSource ? "source" : "rgb";
}

Status PipelineConfig::validate() const {
  if (histogram.bins < 1 || histogram.bins > 256)
    return fail(ErrorCode::kInvalidArgument, "histogram bins must be in [1, 256], got ",
                std::to_string(histogram.bins));
  if (Status s = validateChannels(histogram.channels); !s)
    return recode(s.error(), ErrorCode::kInvalidArgument);
  if (blur) {
    if (blur->taps < 1 || blur->taps % 2 == 0)
      return fail(ErrorCode::kInvalidArgument, "blur taps must be odd and positive, got ",
                  std::to_string(blur->taps),
                  " (an even filter shifts the picture by half a pixel per pass)");
    if (blur->iterations < 1 || blur->iterations > 100)
      return fail(ErrorCode::kInvalidArgument, "blur iterations must be in [1, 100], got ",
                  std::to_string(blur->iterations));
  }
  if (resize &&
      (resize->width < 1 || resize->height < 1 || resize->width > 65536 || resize->height > 65536))
    return fail(ErrorCode::kInvalidArgument, "resize size must be in [1, 65536] each way, got ",
                std::to_string(resize->width), "x", std::to_string(resize->height));
  return Status::success();
}

Pipeline::Pipeline(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Pipeline::~Pipeline() = default;

Result<std::unique_ptr<Pipeline>> Pipeline::create(const PipelineConfig& config) {
  if (Status s = config.validate(); !s) return s.error();
  auto impl = std::make_unique<Impl>();
  impl->config = config;
  if (config.backend == Backend::kGles) {
    GlContextOptions options;
    options.egl.platform = config.gpu.platform;
    options.egl.drm_device = config.gpu.drm_device;
    options.egl.egl_device = config.gpu.egl_device;
    options.debug = config.gpu.debug;
    Result<std::unique_ptr<GlContext>> gl = GlContext::create(options);
    if (!gl) return gl.error();
    impl->gl = std::move(gl.value());
    Result<std::unique_ptr<PipelineBackend>> backend = createGpuBackend(*impl->gl, config);
    if (!backend) return backend.error();
    impl->backend = std::move(backend.value());
  } else {
    Result<std::unique_ptr<PipelineBackend>> backend = createCpuBackend(config);
    if (!backend) return backend.error();
    impl->backend = std::move(backend.value());
  }
  return std::unique_ptr<Pipeline>(new Pipeline(std::move(impl)));
}

const PipelineConfig& Pipeline::config() const {
  return impl_->config;
}

std::string Pipeline::deviceDescription() const {
  if (!impl_->gl) return "cpu";
  return "gles: " + impl_->gl->renderer() + ", " + impl_->gl->version();
}

Result<std::unique_ptr<FrameSource>> Pipeline::openSource(const std::string& spec,
                                                          const SourceConfig& config) {
  SourceOptions options;
  static_cast<SourceConfig&>(options) = config;
  if (impl_->gl && config.io != IoMode::kMmap && !impl_->dmabuf_allocator && isV4l2Spec(spec)) {
    Result<std::unique_ptr<DmabufAllocator>> allocator = createGbmDmabufAllocator(*impl_->gl);
    if (allocator)
      impl_->dmabuf_allocator = std::move(allocator.value());
    else if (config.io != IoMode::kAuto)  // kAuto falls back to mmap; an explicit mode says why
      return allocator.error();
  }
  options.dmabuf_allocator = impl_->dmabuf_allocator.get();
  return esf::openSource(spec, options);
}

namespace {

// Another context may have been made current on this thread since (an application's own, a
// second pipeline's): the stages' GL calls must reach this one.
Status makeCurrent(Pipeline::Impl& impl) {
  if (impl.gl && eglGetCurrentContext() != impl.gl->eglContext()) return impl.gl->makeCurrent();
  return Status::success();
}

}  // namespace

Result<FrameResult> Pipeline::process(const Frame& frame) {
  if (Status s = makeCurrent(*impl_); !s) return s.error();
  return impl_->backend->process(frame);
}

Status submitFrame(Pipeline& pipeline, const Frame& frame) {
  if (Status s = makeCurrent(pipeline.impl()); !s) return s;
  return pipeline.impl().backend->submit(frame);
}

Result<FrameResult> collectFrame(Pipeline& pipeline) {
  if (Status s = makeCurrent(pipeline.impl()); !s) return s.error();
  return pipeline.impl().backend->collect();
}

}  // namespace esf
