// Backend::kGles: the GPU stages, timed with GL timer queries where the context has them.
#include <optional>
#include <utility>

#include "core/import/frame_import.hpp"
#include "core/pipeline/backend_common.hpp"
#include "core/pipeline/frame_plan.hpp"
#include "core/pipeline/frame_readback.hpp"
#include "core/pipeline/gpu_bayer.hpp"
#include "core/pipeline/gpu_detectors.hpp"
#include "core/pipeline/gpu_frame_extra.hpp"
#include "core/pipeline/gpu_health.hpp"
#include "core/pipeline/gpu_histograms.hpp"
#include "core/pipeline/gpu_luma_signalstats.hpp"
#include "core/pipeline/gpu_scopes.hpp"
#include "core/pipeline/pipeline_backend.hpp"
#include "core/stages/blur.hpp"
#include "core/stages/resize.hpp"
#include "core/stages/scale.hpp"
#include "core/stages/stage_gl.hpp"
#include "core/stats/exposure_stats.hpp"
#include "core/tuning/auto_params.hpp"
#include "esframe/base/log.hpp"
#include "platform/gl_fence.hpp"
#include "platform/gpu_timer.hpp"

namespace esf {
namespace {

// A stage image or packed buffer kept across frames, made again when the size changes.
template <typename T>
Status ensureSized(std::optional<T>& target, int width, int height) {
  if (target && target->width() == width && target->height() == height) return Status::success();
  Result<T> made = T::create(width, height);
  if (!made) return made.error();
  target.emplace(std::move(made.value()));
  return Status::success();
}

class GpuBackend : public PipelineBackend {
 public:
  GpuBackend(GlContext& gl, const PipelineConfig& o, std::unique_ptr<FrameImporter> importer,
             HistogramScale scale)
      : gl_(gl),
        o_(o),
        importer_(std::move(importer)),
        histograms_(o.histogram, o.luma),
        scale_(std::move(scale)),
        timer_(gl) {
    if (o.health) health_.emplace(*o.health);
    // In the order their figures build on each other: TOUT and VREP join the chroma's.
    if (o.scopes.any() || o.signalstats) scopes_ = addExtra<GpuScopes>(o.scopes, o.signalstats);
    if (GpuLumaSignalstats::asked(o)) addExtra<GpuLumaSignalstats>(o);
    if (o.detect.block) block_detect_ = addExtra<GpuBlockDetect>(*o.detect.block);
    if (o.detect.blur) blur_detect_ = addExtra<GpuBlurDetect>(*o.detect.blur);
    bayer_ = addExtra<GpuBayer>(o);
  }
  void endStream(std::vector<HealthEvent>& events) override {
    if (health_) health_->finish(events);
  }

  Result<FrameResult> process(const Frame& frame) override {
    if (Status s = submit(frame); !s) return s.error();
    return collect();
  }
  bool countsSignalstats(const Frame& frame) const override {
    return o_.signalstats && plan_ && plan_->format == frame.format && plan_->yuv;
  }
  bool countsLumaSignalstats(const Frame& frame) const override {
    return GpuLumaSignalstats::asked(o_) && countsSignalstats(frame);
  }
  DetectorsCounted detectorsCounted(const Frame& frame) const override {
    DetectorsCounted counted;
    counted.blur = plan_ && blur_detect_ && blur_detect_->counts(frame.format);
    counted.block = plan_ && block_detect_ && block_detect_->counts(frame.format);
    return counted;
  }
  Status configureFor(const Frame& frame) override;
  Status submit(const Frame& frame) override;
  Result<FrameResult> collect() override;
  // Bayer frames are unpacked on the CPU first: the importer stages none.
  Status stage(const Frame& frame) override { return importer_->stage(frame); }
  void settle() override { importer_->settle(); }

 private:
  // A stage's current output on one lane: an image, a packed buffer, or both (the image a
  // packed buffer was made from: its size and the result's texture).
  struct FrameLane {
    const GpuImage* image = nullptr;
    const PackedRgbaBuffer* packed = nullptr;
  };
  // What the passes of one frame hand each other.
  struct FrameState {
    FrameLane lane[2];  // [0] RGB, [1] the source's luma
    ImportedFrame imported;
    GlFence import_fence;
  };

  Status configure(int w, int h);
  // The plan for `frame`'s format, and the stages and programs its passes need, made before any
  // frame's time is taken.
  Status configurePlan(const Frame& frame);
  // Runs the plan's passes on `frame`.
  Status runPlan(const Frame& frame);
  Status importPass(const Frame& frame, const PlanPass& pass, FrameState& state);
  Status imagePass(const PlanPass& pass, FrameState& state);
  // Runs `work` as stage `name` of the frame timer; the times are collected once per frame.
  template <typename Work>
  Status timed(const char* name, const Work& work) {
    timer_.begin(name);
    Status s = work();
    timer_.end();
    return s;
  }
  template <typename Extra, typename... Args>
  Extra* addExtra(Args&&... args) {
    auto extra = std::make_unique<Extra>(gl_, std::forward<Args>(args)...);
    Extra* made = extra.get();
    extras_.push_back(std::move(extra));
    return made;
  }
  bool blurHasPackedForm() const {
    return blur_->params().strategy == BlurStrategy::kSplit && blur_->params().buffer_intermediate;
  }

  GlContext& gl_;
  PipelineConfig o_;
  std::unique_ptr<FrameImporter> importer_;
  GpuHistograms histograms_;
  HistogramScale scale_;
  FrameTimer timer_;
  std::optional<Blur> blur_;
  std::optional<Resize> resize_;
  std::optional<GpuHealth> health_;  // PipelineConfig::health
  // What the configuration asks for beside the histograms, and a Bayer frame's path; the
  // pointers name those the backend calls for more than the list's four steps.
  std::vector<std::unique_ptr<GpuFrameExtra>> extras_;
  GpuScopes* scopes_ = nullptr;             // PipelineConfig::scopes or ::signalstats
  GpuBlockDetect* block_detect_ = nullptr;  // PipelineConfig::detect.block
  GpuBlurDetect* blur_detect_ = nullptr;    // PipelineConfig::detect.blur
  GpuBayer* bayer_ = nullptr;               // the plans that begin with kDemosaic
  int in_w_ = 0, in_h_ = 0;
  bool warned_no_source_luma_ = false;
  bool health_full_range_ = true;  // the frames' luma range (healthLumaIsFullRange)
  // [0] RGB, [1] source luma: imported, blurred, resized, packed.
  std::optional<GpuImage> imported_[2], blurred_[2], resized_[2];
  std::optional<PackedRgbaBuffer> packed_[2];
  std::optional<PackedRgbaBuffer> imported_packed_[2];    // importsPacked(): the import's output
  std::optional<FramePlan> plan_;                         // for the last frame's format and size
  std::optional<std::pair<PixelFormat, Error>> refused_;  // at this size: why it has no plan
  GpuFrameView view_;
  // Between submit() and collect(): the frame's identity, what is known so far, and what to
  // read back.
  struct Submitted {
    Frame frame;  // identity only (seq, timestamps, format): the planes may be reused by now
    FrameResult result;
    // The result's RGBA image, or 0 where the frame's result is only a packed buffer (the
    // blur wrote only that, or the import did: PipelineConfig::image_needed is false then).
    GLuint texture = 0;
    int width = 0, height = 0;
    bool zero_copy = false;
    double upload_ms = 0;
    // The results' slots in readback_.
    size_t scales_at = 0;
  };
  std::optional<Submitted> submitted_;
  // Every result of the frame, copied on the GPU into one buffer and mapped once.
  FrameReadback readback_;
};

Status GpuBackend::configure(int w, int h) {
  in_w_ = w;
  in_h_ = h;
  const int out_w = o_.resize ? o_.resize->width : w;
  const int out_h = o_.resize ? o_.resize->height : h;
  if (o_.resize) {
    if (Status s = checkResizeSize(w, h, out_w, out_h); !s) return s;
  }
  if (Status s = histograms_.configure(gl_, out_w, out_h); !s) return s;
  if (o_.blur) {
    BlurParams base_blur;
    base_blur.filter_dim = o_.blur->taps;
    base_blur.iterations = o_.blur->iterations;
    std::string blur_why;
    BlurParams bp = chooseBlurParams(gl_, w, h, &blur_why, base_blur);
    bp.filter_dim = o_.blur->taps;
    bp.iterations = o_.blur->iterations;
    logInfo(blur_why);
    Result<Blur> b = Blur::create(gl_, bp);
    if (!b) return b.error();
    blur_.emplace(std::move(b.value()));
  }
  if (o_.resize) {
    Result<Resize> r = Resize::create(gl_, ResizeParams::defaultsFor(gl_));
    if (!r) return r.error();
    resize_.emplace(std::move(r.value()));
  }
  return health_ ? health_->configure(gl_) : Status::success();
}

// The stages for this size and the plan for this format, where either changed; the frame's luma
// range (its colorimetry's, where the format is YUV).
Status GpuBackend::configureFor(const Frame& frame) {
  if (frame.width != in_w_ || frame.height != in_h_) {
    if (Status s = configure(frame.width, frame.height); !s) return s;
    plan_.reset();
    refused_.reset();
  }
  if (!plan_ || plan_->format != frame.format) {
    // A format this size could not be set up for fails the same way at each of its frames,
    // without planning (and logging the plan) again.
    if (refused_ && refused_->first == frame.format) return refused_->second;
    if (Status s = configurePlan(frame); !s) {
      plan_.reset();  // each frame of this format and size fails here, not in submit()
      refused_.emplace(frame.format, s.error());
      return s;
    }
    refused_.reset();
  }
  health_full_range_ = healthLumaIsFullRange(plan_->yuv, frame.colorimetry);
  return Status::success();
}

Status GpuBackend::configurePlan(const Frame& frame) {
  FramePlanInputs in = FramePlanInputs::of(o_, frame.format, PlanExecutor::kGpu);
  in.histogram_reads_packed = histograms_.readsPacked();
  in.blur_has_packed_form = blur_ && blurHasPackedForm();
  in.health_accepts_packed = health_ && health_->acceptsPacked();
  plan_ = planFrame(in);
  logInfo("frame plan: " + plan_->describe());
  if (plan_->source_luma_missing && !warned_no_source_luma_) {
    logWarning(std::string("source luma: ") + plan_->format_name +
               " frames have no luma plane; L comes from RGB");
    warned_no_source_luma_ = true;
  }
  for (const std::unique_ptr<GpuFrameExtra>& extra : extras_) {
    if (Status s = extra->configureFor(frame, *plan_); !s) return s;
  }
  // The programs this format needs, built before any frame's time is taken.
  const PlanPass& first = plan_->passes.front();
  if (first.kind == PassKind::kDemosaic) return Status::success();  // GpuBayer's
  return importer_->prepare(frame.format, first.writes == PlanData::kPacked,
                            plan_->import_writes_luma);
}

Status GpuBackend::submit(const Frame& frame) {
  submitted_.reset();
  if (!plan_ || plan_->format != frame.format || frame.width != in_w_ || frame.height != in_h_)
    return fail(ErrorCode::kInternal, "pipeline: a frame submitted before configureFor()");
  return runPlan(frame);
}

Status GpuBackend::importPass(const Frame& frame, const PlanPass& pass, FrameState& state) {
  if (pass.kind == PassKind::kDemosaic) {
    if (Status s = ensureSized(imported_[0], frame.width, frame.height); !s) return s;
    Result<ImportedFrame> f = bayer_->import(frame, *imported_[0]);
    if (!f) return f.error();
    state.imported = f.value();
    state.lane[0].image = &*imported_[0];
    return Status::success();
  }
  // Straight into the stage images or buffers, so no frame is copied on the GPU.
  ImportOptions io;
  io.source_luma = plan_->import_writes_luma;
  io.wait_for_reads = false;  // the read-backs wait; the import fence proves it
  if (pass.writes == PlanData::kPacked) {
    for (int i = 0; i < pass.lanes; ++i) {
      if (Status s = ensureSized(imported_packed_[i], frame.width, frame.height); !s) return s;
    }
    io.target_packed_rgba = imported_packed_[0]->buffer();
    if (io.source_luma) io.target_packed_luma = imported_packed_[1]->buffer();
  } else {
    for (int i = 0; i < pass.lanes; ++i) {
      if (Status s = ensureSized(imported_[i], frame.width, frame.height); !s) return s;
    }
    io.target_rgba = imported_[0]->texture();
    if (io.source_luma) io.target_luma = imported_[1]->texture();
  }
  Result<ImportedFrame> f = importer_->import(frame, io);
  if (!f) return f.error();
  const ImportedFrame& imported = state.imported = f.value();
  // Zero-copy frames too: they read the planes the import read, before the fence below.
  for (const std::unique_ptr<GpuFrameExtra>& extra : extras_) {
    if (Status s = extra->count(imported); !s) return s;
  }
  // The source may requeue a zero-copy buffer once submit() returns: fence the import's reads
  // of it (the first work of the frame), to wait for those alone.
  if (imported.zero_copy) state.import_fence = GlFence::insert("the import of a zero-copy frame");
  if (io.source_luma && !imported.luma && !imported.packed_luma)
    return fail(ErrorCode::kInternal, std::string("frame plan: the import of a ") +
                                          plan_->format_name + " frame wrote no luma");
  if (pass.writes == PlanData::kPacked) {
    state.lane[0].packed = &*imported_packed_[0];
    // GREY's luma is its RGBA buffer.
    if (io.source_luma)
      state.lane[1].packed = imported.packed_luma == imported.packed_rgba ? state.lane[0].packed
                                                                          : &*imported_packed_[1];
    return Status::success();
  }
  // A result lands elsewhere only where the importer shares one image for both (GREY's luma is
  // its RGBA image): copy just those.
  for (int i = 0; i < pass.lanes; ++i) {
    const GLuint tex = i == 0 ? imported.rgba : imported.luma;
    if (tex != imported_[i]->texture()) {
      if (Status s = copyTexture(tex, *imported_[i]); !s) return s;
    }
    state.lane[i].image = &*imported_[i];
  }
  return Status::success();
}

// Blur, resize or pack, on each lane the pass carries, into that lane's stage image or buffer.
Status GpuBackend::imagePass(const PlanPass& pass, FrameState& state) {
  for (int i = 0; i < pass.lanes; ++i) {
    FrameLane& lane = state.lane[i];
    if (pass.kind == PassKind::kResize) {
      if (Status s = ensureSized(resized_[i], o_.resize->width, o_.resize->height); !s) return s;
      if (Status s = resize_->run(*lane.image, *resized_[i]); !s) return s;
      lane.image = &*resized_[i];
      continue;
    }
    const int w = lane.image ? lane.image->width() : lane.packed->width();
    const int h = lane.image ? lane.image->height() : lane.packed->height();
    if (pass.writes == PlanData::kImage) {  // the blur, image to image
      if (Status s = ensureSized(blurred_[i], w, h); !s) return s;
      if (Status s = blur_->run(*lane.image, *blurred_[i]); !s) return s;
      lane.image = &*blurred_[i];
      continue;
    }
    if (Status s = ensureSized(packed_[i], w, h); !s) return s;
    Status s = pass.kind == PassKind::kPack ? histograms_.packer().run(*lane.image, *packed_[i])
               : pass.reads == PlanData::kPacked ? blur_->run(*lane.packed, *packed_[i])
                                                 : blur_->run(*lane.image, *packed_[i]);
    if (!s) return s;
    lane.packed = &*packed_[i];
  }
  return Status::success();
}

Status GpuBackend::runPlan(const Frame& frame) {
  const FramePlan& plan = *plan_;
  FrameResult r;
  FrameState state;
  timer_.startFrame();
  for (const PlanPass& pass : plan.passes) {
    const FrameLane& rgb = state.lane[0];
    const FrameLane luma = pass.lanes == 2 ? state.lane[1] : FrameLane{};
    Status st;
    switch (pass.kind) {
      case PassKind::kImport:
      case PassKind::kDemosaic:
        st = timed("import", [&] { return importPass(frame, pass, state); });
        break;
      case PassKind::kHealth:  // on the import's luma, or its RGB
        st = timed("health", [&] {
          const bool from_rgb = plan.health_from_rgb;
          const FrameLane& source = state.lane[from_rgb ? 0 : 1];
          return pass.reads == PlanData::kImage
                     ? health_->run(*source.image, from_rgb, health_full_range_)
                     : health_->run(*source.packed, from_rgb, health_full_range_);
        });
        break;
      case PassKind::kBlur:
      case PassKind::kResize:
      case PassKind::kPack:
        st = timed(passName(pass.kind), [&] { return imagePass(pass, state); });
        break;
      case PassKind::kHistogram:
      case PassKind::kHistogram256:
        st = timed(passName(pass.kind), [&] {
          return histograms_.dispatch(pass.kind == PassKind::kHistogram256, rgb.image, rgb.packed,
                                      luma.image, luma.packed);
        });
        break;
      case PassKind::kScale: {
        const uint64_t pixels = rgb.image ? uint64_t(rgb.image->width()) * rgb.image->height()
                                          : uint64_t(frame.width) * uint64_t(frame.height);
        st = timed("scale", [&] {
          return scale_.run(histograms_.buffer(), o_.histogram.bins,
                            int(o_.histogram.channels.size()), pixels);
        });
        break;
      }
      case PassKind::kScopes:
        st = timed("scopes", [&] {
          if (pass.reads == PlanData::kPacked)
            return scopes_->countPacked(*rgb.packed, luma.packed, r);
          return scopes_->countImage(*rgb.image, luma.image, r);
        });
        break;
      case PassKind::kImportCount:
        st = fail(ErrorCode::kInternal, "frame plan: a CPU pass in the GPU's plan");
        break;
    }
    if (!st) return st;
  }
  Submitted sub;
  readback_.clear();
  histograms_.addReadback(readback_);
  sub.scales_at = readback_.add(scale_.resultWords(int(o_.histogram.channels.size())));
  if (health_) health_->addReadback(readback_);
  for (const std::unique_ptr<GpuFrameExtra>& extra : extras_) extra->addReadback(readback_);
  if (Status s = readback_.gather(); !s) return s;
  glFlush();  // start the GPU on this frame while the caller reads the next one
  if (Status done = state.import_fence.wait(kGpuWatchdog); !done) return done;
  const GpuImage* result = state.lane[0].image;
  sub.frame = frame;
  sub.result = std::move(r);
  sub.result.zero_copy = state.imported.zero_copy;
  sub.texture = plan.result_image ? result->texture() : 0;
  sub.width = result ? result->width() : frame.width;
  sub.height = result ? result->height() : frame.height;
  sub.zero_copy = state.imported.zero_copy;
  sub.upload_ms = state.imported.upload_ms;
  submitted_.emplace(std::move(sub));
  return Status::success();
}

Result<FrameResult> GpuBackend::collect() {
  if (!submitted_) return fail(ErrorCode::kInternal, "pipeline: collect() without a submit()");
  Submitted sub = std::move(*submitted_);
  submitted_.reset();
  FrameResult& r = sub.result;
  // The one wait for the GPU and the one map of the frame.
  if (Status s = readback_.read(); !s) return s.error();
  HistogramData values;
  if (Status s = histograms_.collect(readback_, r.hist, values); !s) return s.error();
  const std::vector<ChannelScale> scales = HistogramScale::scalesOf(readback_.words(sub.scales_at));
  for (const std::unique_ptr<GpuFrameExtra>& extra : extras_) {
    if (Status s = extra->collect(sub.frame, r, readback_); !s) return s.error();
  }
  // The split luma's counts were read in dispatch() (merged on the host): their waits too.
  const double readback_ms = readback_.takeReadbackMs() + histograms_.takeReadbackMs();
  for (const ChannelScale& s : scales) r.scale.push_back(s.scale);
  if (health_) {  // the figures from the sums the read-back brought
    if (Status s = health_->collect(sub.frame, r, readback_); !s) return s.error();
  }
  // The read-backs above waited for the GPU: the stage times are ready without another wait.
  // A disjoint event (a GPU clock change mid-frame) voids them: that frame reports none.
  if (Result<std::vector<FrameTimer::Span>> spans = timer_.collect(); spans) {
    for (const FrameTimer::Span& sp : spans.value())
      r.timings.push_back({sp.stage, sp.ms, timer_.usesTimerQuery()});
  }
  // CPU-side costs around the GPU stages: handing host planes to GL, and waiting for results.
  if (!sub.zero_copy) r.timings.insert(r.timings.begin(), {"upload", sub.upload_ms, false});
  r.timings.push_back({"readback", readback_ms, false});
  if (health_) r.timings.push_back({"health_readback", health_->readMs(), false});
  finishFrameResult(r, sub.frame, values, sub.width, sub.height);
  view_ =
      GpuFrameView{sub.texture,          sub.width,   sub.height,           histograms_.buffer(),
                   scale_.scaleBuffer(), r.hist.bins, r.hist.channelCount()};
  r.gpu = &view_;
  return std::move(r);
}

}  // namespace

Result<std::unique_ptr<PipelineBackend>> createGpuBackend(GlContext& gl,
                                                          const PipelineConfig& options) {
  if (options.blur) {
    BlurParams p = BlurParams::defaultsFor(gl);
    p.filter_dim = options.blur->taps;
    p.iterations = options.blur->iterations;
    if (Status s = p.validate(gl.limits()); !s) return s.error();
  }
  Result<std::unique_ptr<FrameImporter>> importer = FrameImporter::create(gl);
  if (!importer) return importer.error();
  Result<HistogramScale> scale = HistogramScale::create(gl);
  if (!scale) return scale.error();
  return std::unique_ptr<PipelineBackend>(
      new GpuBackend(gl, options, std::move(importer.value()), std::move(scale.value())));
}

}  // namespace esf
