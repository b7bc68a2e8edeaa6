// Backend::kGles: the GPU stages, timed with GL timer queries where the context has them.
#include <optional>
#include <utility>

#include "capture/pixel_format.hpp"
#include "core/import/frame_import.hpp"
#include "core/pipeline/backend_common.hpp"
#include "core/pipeline/pipeline_backend.hpp"
#include "core/stages/blur.hpp"
#include "core/stages/histogram.hpp"
#include "core/stages/resize.hpp"
#include "core/stages/scale.hpp"
#include "core/stats/exposure_stats.hpp"
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

// A stage image kept across frames, reallocated when the size changes.
Status ensureImage(std::optional<GpuImage>& image, int w, int h) {
  if (image && image->width() == w && image->height() == h) return Status::success();
  Result<GpuImage> made = GpuImage::create(w, h);
  if (!made) return made.error();
  image.emplace(std::move(made.value()));
  return Status::success();
}

// One histogram at `bins` over the user's channels; with a source-luma image, L is counted on
// it and the RGB channels on the RGB image, merged into buffer() for scale and graph.
class Counter {
 public:
  // split_luma: LumaSource::kSource, so L may be counted on its own image.
  Status configure(const GlContext& gl, const HistogramParams& params, bool split_luma) {
    params_ = params;
    rgb_.reset();
    rgb_split_.reset();
    l_.reset();
    HistogramParams all = params;
    Result<Histogram> h = Histogram::create(gl, all);
    if (!h) return h.error();
    rgb_.emplace(std::move(h.value()));
    rgb_only_ = withoutLuma(params.channels);
    if (split_luma && params.channels.find('l') != std::string::npos) {
      HistogramParams lp = params;
      lp.channels = "l";
      Result<Histogram> l = Histogram::create(gl, lp);
      if (!l) return l.error();
      l_.emplace(std::move(l.value()));
      if (!rgb_only_.empty()) {
        HistogramParams rp = params;
        rp.channels = rgb_only_;
        Result<Histogram> r = Histogram::create(gl, rp);
        if (!r) return r.error();
        rgb_split_.emplace(std::move(r.value()));
      }
    }
    merged_ = makeBuffer();
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, merged_.get());
    glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(params.wordCount() * 4), nullptr,
                 GL_DYNAMIC_DRAW);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    return checkGl("histogram buffers");
  }

  // Counts; `luma` null: everything from `rgb`.
  Result<HistogramData> run(const GpuImage& rgb, const PackedRgbaBuffer* rgb_packed,
                            const GpuImage* luma, const PackedRgbaBuffer* luma_packed) {
    HistogramData out;
    out.bins = params_.bins;
    out.channels = params_.channels;
    if (!luma || !l_) {
      if (Status s = runOne(*rgb_, rgb, rgb_packed); !s) return s.error();
      Result<std::vector<uint32_t>> counts = timedRead(*rgb_);
      if (!counts) return counts.error();
      out.counts = std::move(counts.value());
      buffer_ = rgb_->binsBuffer();
      return out;
    }
    std::vector<uint32_t> rgb_counts;
    if (rgb_split_) {
      if (Status s = runOne(*rgb_split_, rgb, rgb_packed); !s) return s.error();
      Result<std::vector<uint32_t>> c = timedRead(*rgb_split_);
      if (!c) return c.error();
      rgb_counts = std::move(c.value());
    }
    if (Status s = runOne(*l_, *luma, luma_packed); !s) return s.error();
    Result<std::vector<uint32_t>> l_counts = timedRead(*l_);
    if (!l_counts) return l_counts.error();
    out = mergeLuma(params_.channels, params_.bins, rgb_only_, rgb_counts, l_counts.value());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, merged_.get());
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(out.counts.size() * 4),
                    out.counts.data());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    buffer_ = merged_.get();
    return out;
  }

  GLuint buffer() const { return buffer_; }
  // Wall time the reads have waited for the GPU since the last call.
  double takeReadbackMs() { return std::exchange(readback_ms_, 0.0); }

 private:
  Result<std::vector<uint32_t>> timedRead(const Histogram& h) {
    WallTimer t;
    Result<std::vector<uint32_t>> counts = h.read();
    readback_ms_ += t.ms();
    return counts;
  }

  Status runOne(Histogram& h, const GpuImage& image, const PackedRgbaBuffer* packed) {
    if (h.params().source == ImageSource::kPackedBuffer) return h.run(*packed);
    return h.run(image);
  }

  HistogramParams params_;
  std::optional<Histogram> rgb_, rgb_split_, l_;
  std::string rgb_only_;
  GlBuffer merged_;
  GLuint buffer_ = 0;
  double readback_ms_ = 0;
};

class GpuBackend : public PipelineBackend {
 public:
  GpuBackend(GlContext& gl, const PipelineConfig& o, std::unique_ptr<FrameImporter> importer,
             RgbaPacker packer, HistogramScale scale)
      : gl_(gl),
        o_(o),
        importer_(std::move(importer)),
        packer_(std::move(packer)),
        scale_(std::move(scale)),
        timer_(gl) {}

  Result<FrameResult> process(const Frame& frame) override;

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

  GlContext& gl_;
  PipelineConfig o_;
  std::unique_ptr<FrameImporter> importer_;
  RgbaPacker packer_;
  HistogramScale scale_;
  FrameTimer timer_;
  std::optional<Blur> blur_;
  std::optional<Resize> resize_;
  Counter binned_, values_;
  bool uses_packed_ = false;
  int in_w_ = 0, in_h_ = 0;
  bool warned_no_source_luma_ = false;
  bool auto_refused_ = false;  // strategy=auto's choice failed once: use the stage defaults
  // [0] RGB, [1] source luma: imported, blurred, resized, packed.
  std::optional<GpuImage> imported_[2], blurred_[2], resized_[2];
  std::optional<PackedRgbaBuffer> packed_[2];
  GlFence import_fence_;  // after a zero-copy import; waited on before process() returns
  GpuFrameView view_;
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
  return Status::success();
}

Result<FrameResult> GpuBackend::process(const Frame& frame) {
  if (frame.width != in_w_ || frame.height != in_h_) {
    if (Status s = configure(frame.width, frame.height); !s) return s.error();
  }
  FrameResult r;
  timer_.startFrame();
  const bool want_source_luma =
      o_.luma == LumaSource::kSource && o_.histogram.channels.find('l') != std::string::npos;
  ImportedFrame imported;
  Status st = timed(r, "import", [&]() -> Status {
    // Import straight into the stage images, so no frame is copied on the GPU.
    ImportOptions io;
    io.source_luma = want_source_luma;
    io.wait_for_reads = false;  // the read-backs below wait; import_fence_ proves it
    if (Status s = ensureImage(imported_[0], frame.width, frame.height); !s) return s;
    io.target_rgba = imported_[0]->texture();
    if (want_source_luma) {
      if (Status s = ensureImage(imported_[1], frame.width, frame.height); !s) return s;
      io.target_luma = imported_[1]->texture();
    }
    Result<ImportedFrame> f = importer_->import(frame, io);
    if (!f) return f.error();
    imported = f.value();
    if (imported.zero_copy) import_fence_ = GlFence::insert("the import of a zero-copy frame");
    // A result lands elsewhere only where the importer shares one image for both (GREY's luma
    // is its RGBA image): copy just those.
    for (int i = 0; i < 2; ++i) {
      GLuint tex = i == 0 ? imported.rgba : imported.luma;
      if (!tex || (imported_[i] && tex == imported_[i]->texture())) continue;
      if (Status s = ensureImage(imported_[i], imported.width, imported.height); !s) return s;
      if (Status s = copyTexture(tex, *imported_[i]); !s) return s;
    }
    return Status::success();
  });
  if (!st) return st.error();
  r.zero_copy = imported.zero_copy;
  const bool luma = imported.luma != 0;
  if (want_source_luma && !luma && !warned_no_source_luma_) {
    logWarning(std::string("source luma: ") + formatName(frame.format) +
               " frames have no luma plane; L comes from RGB");
    warned_no_source_luma_ = true;
  }
  std::optional<GpuImage>* current[2] = {&imported_[0], &imported_[1]};
  if (blur_) {
    st = timed(r, "blur", [&]() -> Status {
      for (int i = 0; i < (luma ? 2 : 1); ++i) {
        GpuImage& in = **current[i];
        if (Status s = ensureImage(blurred_[i], in.width(), in.height()); !s) return s;
        if (Status s = blur_->run(in, *blurred_[i]); !s) return s;
        current[i] = &blurred_[i];
      }
      return Status::success();
    });
    if (!st) return st.error();
  }
  if (resize_) {
    st = timed(r, "resize", [&]() -> Status {
      for (int i = 0; i < (luma ? 2 : 1); ++i) {
        if (Status s = ensureImage(resized_[i], o_.resize->width, o_.resize->height); !s) return s;
        if (Status s = resize_->run(**current[i], *resized_[i]); !s) return s;
        current[i] = &resized_[i];
      }
      return Status::success();
    });
    if (!st) return st.error();
  }
  const GpuImage& rgb = **current[0];
  const GpuImage* luma_image = luma ? &**current[1] : nullptr;
  if (uses_packed_) {
    st = timed(r, "pack", [&]() -> Status {
      for (int i = 0; i < (luma ? 2 : 1); ++i) {
        const GpuImage& img = **current[i];
        if (!packed_[i] || packed_[i]->width() != img.width() ||
            packed_[i]->height() != img.height()) {
          Result<PackedRgbaBuffer> p = PackedRgbaBuffer::create(img.width(), img.height());
          if (!p) return p.error();
          packed_[i].emplace(std::move(p.value()));
        }
        if (Status s = packer_.run(img, *packed_[i]); !s) return s;
      }
      return Status::success();
    });
    if (!st) return st.error();
  }
  const PackedRgbaBuffer* rgb_packed = uses_packed_ ? &*packed_[0] : nullptr;
  const PackedRgbaBuffer* luma_packed = uses_packed_ && luma ? &*packed_[1] : nullptr;
  st = timed(r, "histogram", [&]() -> Status {
    Result<HistogramData> h = binned_.run(rgb, rgb_packed, luma_image, luma_packed);
    if (!h) return h.error();
    r.hist = std::move(h.value());
    return Status::success();
  });
  if (!st && !o_.histogram.strategy && !auto_refused_) {
    // strategy=auto picked parameters the stage refuses for this size (a driver limit the
    // choice did not know): say so once and fall back to the stage's own defaults.
    logWarning(st.error().message + "; using the histogram stage's defaults");
    auto_refused_ = true;
    in_w_ = in_h_ = 0;
    return process(frame);
  }
  if (!st) return st.error();
  HistogramData values = r.hist;
  if (r.hist.bins != kValueCount) {
    st = timed(r, "histogram256", [&]() -> Status {
      Result<HistogramData> h = values_.run(rgb, rgb_packed, luma_image, luma_packed);
      if (!h) return h.error();
      values = std::move(h.value());
      return Status::success();
    });
    if (!st) return st.error();
  }
  st = timed(r, "scale", [&]() -> Status {
    return scale_.run(binned_.buffer(), r.hist.bins, r.hist.channelCount(),
                      uint64_t(rgb.width()) * uint64_t(rgb.height()));
  });
  if (!st) return st.error();
  WallTimer scale_read;
  Result<std::vector<ChannelScale>> scales = scale_.read(r.hist.channelCount());
  if (!scales) return scales.error();
  const double readback_ms = binned_.takeReadbackMs() + values_.takeReadbackMs() + scale_read.ms();
  for (const ChannelScale& s : scales.value()) r.scale.push_back(s.scale);
  // The source requeues a zero-copy buffer on its next frame: the GPU must have read it. The
  // read-backs above waited for later work, so this fence has signalled and does not stall.
  if (Status done = std::exchange(import_fence_, GlFence{}).wait(kGpuWatchdog); !done)
    return done.error();
  // The read-backs above waited for the GPU: the stage times are ready without another wait.
  // A disjoint event (a GPU clock change mid-frame) voids them: that frame reports none.
  if (Result<std::vector<FrameTimer::Span>> spans = timer_.collect(); spans) {
    for (const FrameTimer::Span& sp : spans.value())
      r.timings.push_back({sp.stage, sp.ms, timer_.usesTimerQuery()});
  }
  // CPU-side costs around the GPU stages: handing host planes to GL, and waiting for results.
  if (!imported.zero_copy)
    r.timings.insert(r.timings.begin(), {"upload", imported.upload_ms, false});
  r.timings.push_back({"readback", readback_ms, false});
  finishFrameResult(r, frame, values, rgb.width(), rgb.height());
  view_ = GpuFrameView{rgb.texture(),        rgb.width(), rgb.height(),         binned_.buffer(),
                       scale_.scaleBuffer(), r.hist.bins, r.hist.channelCount()};
  r.gpu = &view_;
  return r;
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
  Result<RgbaPacker> packer = RgbaPacker::create(gl);
  if (!packer) return packer.error();
  Result<HistogramScale> scale = HistogramScale::create(gl);
  if (!scale) return scale.error();
  return std::unique_ptr<PipelineBackend>(new GpuBackend(gl, options, std::move(importer.value()),
                                                         std::move(packer.value()),
                                                         std::move(scale.value())));
}

}  // namespace esf
