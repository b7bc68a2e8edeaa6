// Backend::kGles: the GPU stages, timed with GL timer queries where the context has them.
#include <optional>
#include <utility>

#include "capture/pixel_format.hpp"
#include "core/cpu/row_pool.hpp"
#include "core/import/frame_import.hpp"
#include "core/pipeline/backend_common.hpp"
#include "core/pipeline/bayer_frame.hpp"
#include "core/pipeline/gpu_histogram_counter.hpp"
#include "core/pipeline/pipeline_backend.hpp"
#include "core/stages/blur.hpp"
#include "core/stages/demosaic.hpp"
#include "core/stages/frame_difference.hpp"
#include "core/stages/histogram.hpp"
#include "core/stages/resize.hpp"
#include "core/stages/scale.hpp"
#include "core/stages/sobel.hpp"
#include "core/stages/stage_gl.hpp"
#include "core/stats/exposure_stats.hpp"
#include "core/stats/health.hpp"
#include "core/tuning/auto_params.hpp"
#include "esframe/base/log.hpp"
#include "platform/gl_fence.hpp"
#include "platform/gpu_timer.hpp"

namespace esf {
namespace {

// Copies an imported RGBA8 texture into a stage image (an exact 1:1 blit), for the one case
// where the importer shares an image between its RGBA and luma results.
Status copyTexture(GLuint from, const GpuImage& to) {
  GlFramebuffer read = makeFramebuffer(), draw = makeFramebuffer();
  glBindFramebuffer(GL_READ_FRAMEBUFFER, read.get());
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, from, 0);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, draw.get());
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, to.texture(), 0);
  glBlitFramebuffer(0, 0, to.width(), to.height(), 0, 0, to.width(), to.height(),
                    GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  return checkGl("copying the imported frame");
}

// A stage image or packed buffer kept across frames, reallocated when the size changes.
template <typename T>
Status ensureSized(std::optional<T>& target, int w, int h) {
  if (target && target->width() == w && target->height() == h) return Status::success();
  Result<T> made = T::create(w, h);
  if (!made) return made.error();
  target.emplace(std::move(made.value()));
  return Status::success();
}

class GpuBackend : public PipelineBackend {
 public:
  GpuBackend(GlContext& gl, const PipelineConfig& o, std::unique_ptr<FrameImporter> importer,
             HistogramScale scale)
      : gl_(gl), o_(o), importer_(std::move(importer)), scale_(std::move(scale)), timer_(gl) {
    if (o.health) monitor_.emplace(*o.health);
  }
  void endStream(std::vector<HealthEvent>& events) override {
    if (monitor_) monitor_->finish(events);
  }

  Result<FrameResult> process(const Frame& frame) override {
    if (Status s = submit(frame); !s) return s.error();
    return collect();
  }
  Status submit(const Frame& frame) override;
  Result<FrameResult> collect() override;
  Status stage(const Frame& frame) override {
    if (isBayer(frame.format)) return Status::success();  // unpacked on the CPU first
    return importer_->stage(frame);
  }
  void settle() override { importer_->settle(); }

 private:
  Status configure(int w, int h);
  // Runs `work` as stage `name` of the frame timer; the times are collected once per frame.
  Status timed(FrameResult&, const char* name, const std::function<Status()>& work) {
    timer_.begin(name);
    Status s = work();
    timer_.end();
    return s;
  }
  Status stage(std::optional<GpuImage>& in, std::optional<GpuImage>& out, bool blur);
  // Whether the blur writes the histogram's packed buffer itself (Blur's packed form): the
  // histogram reads a packed buffer, no resize follows, no sink reads the blurred image, and
  // the blur is split through a buffer.
  bool blurPacks() const {
    return blur_ && uses_packed_ && !resize_ && !o_.image_needed && blurHasPackedForm();
  }
  bool blurHasPackedForm() const {
    return blur_->params().strategy == BlurStrategy::kSplit && blur_->params().buffer_intermediate;
  }
  // Whether frames are imported straight into packed buffers, with no RGBA image at all: every
  // stage after the import reads packed buffers (the histogram reads one, the blur has its
  // packed form, nothing resizes, the health stages read a packed frame where they run), and no
  // sink reads the image. Saves the pack pass, and the blur runs packed -> packed; a host
  // RGBA32 frame is a buffer copy, no texture upload (the driver's texture path costs the CPU
  // twice the buffer's on NVIDIA). Bayer frames are demosaiced into the image first.
  bool importsPacked(PixelFormat format) const {
    return uses_packed_ && !resize_ && !o_.image_needed && !isBayer(format) &&
           (!blur_ || blurHasPackedForm()) && (!difference_ || difference_->acceptsPacked());
  }
  Result<ImportedFrame> importBayer(const Frame& frame, FrameResult& r);

  GlContext& gl_;
  PipelineConfig o_;
  std::unique_ptr<FrameImporter> importer_;
  std::optional<RgbaPacker> packer_;  // made when a histogram reads the packed buffer
  HistogramScale scale_;
  FrameTimer timer_;
  std::optional<Blur> blur_;
  std::optional<Resize> resize_;
  std::optional<Demosaic> demosaic_;  // made at the first Bayer frame
  // Made at the first Bayer frame too: its values are unpacked and its raw statistics counted on
  // the host, on these threads (a quarter less upload time on two cores than on one beside
  // llvmpipe: bench/results/zen5-2core-cpu-import.md).
  std::optional<RowPool> host_pool_;
  // PipelineConfig::health: the two stages and the figures from their sums.
  std::optional<FrameDifference> difference_;
  std::optional<Sobel> sobel_;
  std::optional<HealthMonitor> monitor_;
  GpuHistogramCounter binned_, values_;
  bool uses_packed_ = false;
  int in_w_ = 0, in_h_ = 0;
  bool warned_no_source_luma_ = false;
  bool auto_refused_ = false;  // strategy=auto's choice failed once: use the stage defaults
  // [0] RGB, [1] source luma: imported, blurred, resized, packed.
  std::optional<GpuImage> imported_[2], blurred_[2], resized_[2];
  std::optional<PackedRgbaBuffer> packed_[2];
  std::optional<PackedRgbaBuffer> imported_packed_[2];  // importsPacked(): the import's output
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
    bool health_full_range = true;  // the health stages ran with this range
  };
  std::optional<Submitted> submitted_;
};

Status GpuBackend::configure(int w, int h) {
  in_w_ = w;
  in_h_ = h;
  const int out_w = o_.resize ? o_.resize->width : w;
  const int out_h = o_.resize ? o_.resize->height : h;
  if (o_.resize) {
    if (Status s = checkResizeSize(w, h, out_w, out_h); !s) return s;
  }
  HistogramParams base;
  base.bins = o_.histogram.bins;
  base.channels = o_.histogram.channels;
  HistogramParams p;
  std::string why;
  if (!o_.histogram.strategy && !auto_refused_) {
    p = chooseHistogramParams(gl_, out_w, out_h, &why, base);
  } else if (!o_.histogram.strategy) {
    p = HistogramParams::defaultsFor(gl_);
    p.bins = base.bins;
    p.channels = base.channels;
    why = "histogram: the stage's defaults (the automatic choice was refused)";
  } else {
    p = HistogramParams::defaultsFor(gl_);
    p.bins = base.bins;
    p.channels = base.channels;
    p.strategy = *o_.histogram.strategy;
    why = "histogram: strategy ";  // appended piecewise: GCC 12 -Wrestrict misfires on a + b + c
    why.append(histogramStrategyName(p.strategy)).append(" (configured)");
  }
  logInfo(why);
  const bool split = o_.luma == LumaSource::kSource;
  if (Status s = binned_.configure(gl_, p, split); !s) return s;
  if (p.bins != kValueCount) {
    HistogramParams v = p;
    v.bins = kValueCount;
    if (Status s = values_.configure(gl_, v, split); !s) return s;
  }
  uses_packed_ = p.source == ImageSource::kPackedBuffer;
  if (uses_packed_ && !packer_) {
    Result<RgbaPacker> packer = RgbaPacker::create(gl_);
    if (!packer) return packer.error();
    packer_.emplace(std::move(packer.value()));
  }
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
  if (o_.health && !difference_) {
    const HealthRegionSpec regions = HealthRegionSpec::of(*o_.health);
    Result<FrameDifference> d =
        FrameDifference::create(gl_, FrameDifferenceParams::defaultsFor(gl_), regions);
    if (!d) return d.error();
    Result<Sobel> s = Sobel::create(gl_, SobelParams::defaultsFor(gl_), regions);
    if (!s) return s.error();
    // Both or neither: a later frame must not find the difference without its Sobel pass.
    difference_.emplace(std::move(d.value()));
    sobel_.emplace(std::move(s.value()));
  }
  return Status::success();
}

// Bayer frames: the values unpacked on the CPU (with the raw statistics into r.raw), uploaded,
// demosaiced into the stage image.
Result<ImportedFrame> GpuBackend::importBayer(const Frame& frame, FrameResult& r) {
  WallTimer upload_timer;
  if (!host_pool_) host_pool_.emplace(o_.threads);
  Result<BayerInput> bayer = prepareBayer(frame, o_, &*host_pool_);
  if (!bayer) return bayer.error();
  r.raw = std::move(bayer->stats);
  if (!demosaic_) {
    Result<Demosaic> d = Demosaic::create(gl_);
    if (!d) return d.error();
    demosaic_.emplace(std::move(d.value()));
  }
  if (Status s = demosaic_->upload(bayer->values, frame.width, frame.height); !s) return s.error();
  ImportedFrame out;
  out.upload_ms = upload_timer.ms();
  if (Status s = demosaic_->run(bayer->demosaic, *imported_[0]); !s) return s.error();
  out.rgba = imported_[0]->texture();
  out.width = frame.width, out.height = frame.height;
  return out;
}

Status GpuBackend::submit(const Frame& frame) {
  submitted_.reset();
  if (frame.width != in_w_ || frame.height != in_h_) {
    if (Status s = configure(frame.width, frame.height); !s) return s;
  }
  const bool packed_import = importsPacked(frame.format);
  const bool want_source_luma =
      o_.luma == LumaSource::kSource && o_.histogram.channels.find('l') != std::string::npos;
  // The programs this frame's format needs, built before its time is taken.
  if (Status s = importer_->prepare(frame.format, packed_import, want_source_luma || difference_);
      !s)
    return s;
  FrameResult r;
  timer_.startFrame();
  ImportedFrame imported;
  GlFence import_fence;
  Status st = timed(r, "import", [&]() -> Status {
    // Import straight into the stage images, so no frame is copied on the GPU.
    ImportOptions io;
    // The health stages read the source's Y plane too, whatever the histogram's L reads.
    io.source_luma = want_source_luma || difference_;
    io.wait_for_reads = false;  // the read-backs below wait; import_fence_ proves it
    if (packed_import) {
      for (int i = 0; i < (io.source_luma ? 2 : 1); ++i) {
        if (Status s = ensureSized(imported_packed_[i], frame.width, frame.height); !s) return s;
      }
      io.target_packed_rgba = imported_packed_[0]->buffer();
      if (io.source_luma) io.target_packed_luma = imported_packed_[1]->buffer();
      Result<ImportedFrame> f = importer_->import(frame, io);
      if (!f) return f.error();
      imported = f.value();
      if (imported.zero_copy) import_fence = GlFence::insert("the import of a zero-copy frame");
      return Status::success();
    }
    if (Status s = ensureSized(imported_[0], frame.width, frame.height); !s) return s;
    io.target_rgba = imported_[0]->texture();
    if (io.source_luma) {
      if (Status s = ensureSized(imported_[1], frame.width, frame.height); !s) return s;
      io.target_luma = imported_[1]->texture();
    }
    Result<ImportedFrame> f =
        isBayer(frame.format) ? importBayer(frame, r) : importer_->import(frame, io);
    if (!f) return f.error();
    imported = f.value();
    // The source may requeue a zero-copy buffer once submit() returns: fence the import's
    // reads of it (the first work of the frame), to wait for those alone.
    if (imported.zero_copy) import_fence = GlFence::insert("the import of a zero-copy frame");
    // A result lands elsewhere only where the importer shares one image for both (GREY's luma
    // is its RGBA image): copy just those.
    for (int i = 0; i < 2; ++i) {
      GLuint tex = i == 0 ? imported.rgba : imported.luma;
      if (!tex || (imported_[i] && tex == imported_[i]->texture())) continue;
      if (Status s = ensureSized(imported_[i], imported.width, imported.height); !s) return s;
      if (Status s = copyTexture(tex, *imported_[i]); !s) return s;
    }
    return Status::success();
  });
  if (!st) return st;
  r.zero_copy = imported.zero_copy;
  const bool luma = want_source_luma && (imported.luma != 0 || imported.packed_luma != 0);
  const bool health_full_range = healthLumaIsFullRange(frame);
  if (difference_) {
    const bool from_rgb = !imported.luma && !imported.packed_luma;
    // GREY's luma is its RGBA buffer.
    const bool own_luma = !from_rgb && imported.packed_luma != imported.packed_rgba;
    st = timed(r, "health", [&]() -> Status {
      if (!packed_import) {  // the Sobel pass reads the luma the frame difference wrote
        const GpuImage& source = from_rgb ? *imported_[0] : *imported_[1];
        if (Status s = difference_->run(source, from_rgb, health_full_range); !s) return s;
        return sobel_->run(difference_->currentLuma(), frame.width, frame.height,
                           health_full_range);
      }
      // Both passes read the packed frame, not each other: queued together with one barrier
      // after both, the GPU overlaps them.
      const PackedRgbaBuffer& source = *imported_packed_[own_luma ? 1 : 0];
      if (Status s = difference_->queue(source, from_rgb, health_full_range); !s) return s;
      if (Status s = sobel_->queue(source, from_rgb, health_full_range); !s) return s;
      glMemoryBarrier(kStorageWrittenBarrier);
      if (Status s = difference_->complete(); !s) return s;
      return sobel_->complete();
    });
    if (!st) return st;
  }
  if (want_source_luma && !luma && !warned_no_source_luma_) {
    logWarning(std::string("source luma: ") + formatName(frame.format) +
               " frames have no luma plane; L comes from RGB");
    warned_no_source_luma_ = true;
  }
  std::optional<GpuImage>* current[2] = {&imported_[0], &imported_[1]};
  // Packed imports: the buffers the stages read (GREY's luma is its RGBA buffer).
  const PackedRgbaBuffer* packed_frame[2] = {nullptr, nullptr};
  if (packed_import) {
    packed_frame[0] = &*imported_packed_[0];
    if (luma)
      packed_frame[1] =
          imported.packed_luma == imported.packed_rgba ? packed_frame[0] : &*imported_packed_[1];
  }
  const bool blur_packs = blurPacks();
  if (blur_ && packed_import) {
    st = timed(r, "blur", [&]() -> Status {
      for (int i = 0; i < (luma ? 2 : 1); ++i) {
        const PackedRgbaBuffer& in = *packed_frame[i];
        if (Status s = ensureSized(packed_[i], in.width(), in.height()); !s) return s;
        if (Status s = blur_->run(in, *packed_[i]); !s) return s;
        packed_frame[i] = &*packed_[i];
      }
      return Status::success();
    });
    if (!st) return st;
  } else if (blur_) {
    st = timed(r, "blur", [&]() -> Status {
      for (int i = 0; i < (luma ? 2 : 1); ++i) {
        GpuImage& in = **current[i];
        if (blur_packs) {  // straight into the packed buffer the histogram reads: no pack pass
          if (Status s = ensureSized(packed_[i], in.width(), in.height()); !s) return s;
          if (Status s = blur_->run(in, *packed_[i]); !s) return s;
          continue;
        }
        if (Status s = ensureSized(blurred_[i], in.width(), in.height()); !s) return s;
        if (Status s = blur_->run(in, *blurred_[i]); !s) return s;
        current[i] = &blurred_[i];
      }
      return Status::success();
    });
    if (!st) return st;
  }
  if (resize_) {
    st = timed(r, "resize", [&]() -> Status {
      for (int i = 0; i < (luma ? 2 : 1); ++i) {
        if (Status s = ensureSized(resized_[i], o_.resize->width, o_.resize->height); !s) return s;
        if (Status s = resize_->run(**current[i], *resized_[i]); !s) return s;
        current[i] = &resized_[i];
      }
      return Status::success();
    });
    if (!st) return st;
  }
  const GpuImage* rgb = packed_import ? nullptr : &**current[0];
  const GpuImage* luma_image = luma && !packed_import ? &**current[1] : nullptr;
  if (uses_packed_ && !blur_packs && !packed_import) {
    st = timed(r, "pack", [&]() -> Status {
      for (int i = 0; i < (luma ? 2 : 1); ++i) {
        const GpuImage& img = **current[i];
        if (Status s = ensureSized(packed_[i], img.width(), img.height()); !s) return s;
        if (Status s = packer_->run(img, *packed_[i]); !s) return s;
      }
      return Status::success();
    });
    if (!st) return st;
  }
  const PackedRgbaBuffer* rgb_packed = packed_import  ? packed_frame[0]
                                       : uses_packed_ ? &*packed_[0]
                                                      : nullptr;
  const PackedRgbaBuffer* luma_packed = packed_import          ? packed_frame[1]
                                        : uses_packed_ && luma ? &*packed_[1]
                                                               : nullptr;
  const int result_w = rgb ? rgb->width() : frame.width;
  const int result_h = rgb ? rgb->height() : frame.height;
  st = timed(r, "histogram", [&]() -> Status {
    return binned_.dispatch(rgb, rgb_packed, luma_image, luma_packed);
  });
  if (!st && !o_.histogram.strategy && !auto_refused_) {
    // strategy=auto picked parameters the stage refuses for this size (a driver limit the
    // choice did not know): say so once and fall back to the stage's own defaults.
    logWarning(st.error().message + "; using the histogram stage's defaults");
    auto_refused_ = true;
    in_w_ = in_h_ = 0;
    return submit(frame);
  }
  if (!st) return st;
  const bool separate_values = o_.histogram.bins != kValueCount;
  if (separate_values) {
    st = timed(r, "histogram256", [&]() -> Status {
      return values_.dispatch(rgb, rgb_packed, luma_image, luma_packed);
    });
    if (!st) return st;
  }
  const int channels = int(o_.histogram.channels.size());
  st = timed(r, "scale", [&]() -> Status {
    return scale_.run(binned_.buffer(), o_.histogram.bins, channels,
                      uint64_t(result_w) * uint64_t(result_h));
  });
  if (!st) return st;
  glFlush();  // start the GPU on this frame while the caller reads the next one
  if (Status done = import_fence.wait(kGpuWatchdog); !done) return done;
  Submitted sub;
  sub.frame = frame;
  sub.result = std::move(r);
  sub.texture = rgb && !blur_packs ? rgb->texture() : 0;
  sub.width = result_w;
  sub.height = result_h;
  sub.zero_copy = imported.zero_copy;
  sub.upload_ms = imported.upload_ms;
  sub.health_full_range = health_full_range;
  submitted_.emplace(std::move(sub));
  return Status::success();
}

Result<FrameResult> GpuBackend::collect() {
  if (!submitted_) return fail(ErrorCode::kInternal, "pipeline: collect() without a submit()");
  Submitted sub = std::move(*submitted_);
  submitted_.reset();
  FrameResult& r = sub.result;
  Result<HistogramData> binned = binned_.read();
  if (!binned) return binned.error();
  r.hist = std::move(binned.value());
  HistogramData values = r.hist;
  if (r.hist.bins != kValueCount) {
    Result<HistogramData> v = values_.read();
    if (!v) return v.error();
    values = std::move(v.value());
  }
  WallTimer scale_read;
  Result<std::vector<ChannelScale>> scales = scale_.read(r.hist.channelCount());
  if (!scales) return scales.error();
  const double readback_ms = binned_.takeReadbackMs() + values_.takeReadbackMs() + scale_read.ms();
  for (const ChannelScale& s : scales.value()) r.scale.push_back(s.scale);
  double health_read_ms = -1;  // the health sums' read-back, timed after the GPU stages
  if (difference_) {
    WallTimer health_read;
    HealthSums sums;
    Result<FrameDifferenceSums> d = difference_->read();
    if (!d) return d.error();
    Result<SobelSums> so = sobel_->read();
    if (!so) return so.error();
    sums.difference = d.value();
    sums.sobel = so.value();
    sums.pixels = uint64_t(sub.frame.width) * uint64_t(sub.frame.height);
    sums.width = sub.frame.width;
    sums.height = sub.frame.height;
    sums.full_range = sub.health_full_range;
    sums.first = difference_->first();
    difference_->advance(healthFrozen(sums, *o_.health));
    r.health = monitor_->update(sums, sub.frame.sequence, sub.frame.timestamp_ns, r.events);
    health_read_ms = health_read.ms();
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
  if (health_read_ms >= 0) r.timings.push_back({"health_readback", health_read_ms, false});
  finishFrameResult(r, sub.frame, values, sub.width, sub.height);
  view_ = GpuFrameView{sub.texture,          sub.width,   sub.height,           binned_.buffer(),
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
