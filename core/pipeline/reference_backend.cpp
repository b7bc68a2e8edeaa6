// Backend::kReference: every stage is its plain CPU reference (the same code the GPU tests compare
// against), so the output equals the gles backend's bit for bit, timings aside.
#include <optional>

#include "base/channels.hpp"
#include "base/pixel_format.hpp"
#include "core/import/import_reference.hpp"
#include "core/pipeline/backend_common.hpp"
#include "core/pipeline/bayer_frame.hpp"
#include "core/pipeline/host_health.hpp"
#include "core/pipeline/pipeline_backend.hpp"
#include "core/stages/blur.hpp"
#include "core/stages/blur_reference.hpp"
#include "core/stages/histogram_reference.hpp"
#include "core/stages/resize.hpp"
#include "core/stages/resize_reference.hpp"
#include "core/stages/scopes_reference.hpp"
#include "core/stats/exposure_stats.hpp"
#include "core/stats/raw_histogram.hpp"
#include "esframe/base/log.hpp"

namespace esf {
namespace {

class ReferenceBackend : public PipelineBackend {
 public:
  explicit ReferenceBackend(const PipelineConfig& o) : o_(o) {
    if (o.health) health_.emplace(*o.health, nullptr);
  }
  void endStream(std::vector<HealthEvent>& events) override {
    if (health_) health_->finish(events);
  }

  // The oracle runs every stage in the plain order, on every frame as it comes: no plan.
  Status configureFor(const Frame&) override { return Status::success(); }

  Result<FrameResult> process(const Frame& frame) override {
    FrameResult r;
    WallTimer import_timer;
    Result<RgbaImage> rgba = importReference(frame, r);
    if (!rgba) return rgba.error();
    image_ = std::move(rgba.value());
    std::optional<RgbaImage> luma;
    const bool l_counted = o_.histogram.channels.find('l') != std::string::npos;
    if (o_.luma == LumaSource::kSource && (l_counted || o_.scopes.waveform)) {
      Result<std::vector<uint8_t>> y = extractLumaPlane(frame);
      if (y) {
        luma.emplace(frame.width, frame.height);
        for (size_t i = 0; i < y->size(); ++i) {
          uint8_t* p = &luma->pixels[i * 4];
          p[0] = p[1] = p[2] = y.value()[i];
          p[3] = 255;
        }
      } else if (!warned_no_source_luma_) {
        logWarning(std::string("source luma: ") + formatName(frame.format) +
                   " frames have no luma plane; L comes from RGB");
        warned_no_source_luma_ = true;
      }
    }
    r.timings.push_back({"import", import_timer.ms(), false});
    if (health_) health_->process(frame, &image_, r);

    if (o_.blur) {
      WallTimer t;
      image_ = blurReference(image_, o_.blur->taps, o_.blur->iterations);
      if (luma) luma = blurReference(*luma, o_.blur->taps, o_.blur->iterations);
      r.timings.push_back({"blur", t.ms(), false});
    }
    if (o_.resize) {
      const auto [w, h] = *o_.resize;
      if (Status s = checkResizeSize(image_.width, image_.height, w, h); !s) return s.error();
      WallTimer t;
      image_ = resizeReference(image_, w, h);
      if (luma) luma = resizeReference(*luma, w, h);
      r.timings.push_back({"resize", t.ms(), false});
    }

    const int bins = o_.histogram.bins;
    WallTimer hist_timer;
    const RgbaImage* counted_luma = luma && l_counted ? &*luma : nullptr;
    r.hist = count(bins, counted_luma);
    r.timings.push_back({"histogram", hist_timer.ms(), false});
    HistogramData values = r.hist;
    if (bins != kValueCount) {
      WallTimer t;
      values = count(kValueCount, counted_luma);
      r.timings.push_back({"histogram256", t.ms(), false});
    }
    if (o_.scopes.any()) {
      WallTimer t;
      r.scopes = countScopes(frame, luma ? &*luma : nullptr);
      r.timings.push_back({"scopes", t.ms(), false});
    }
    finishHostFrameResult(r, frame, values, image_);
    return r;
  }

 private:
  // Bayer frames: the plain demosaic, and the raw statistics into r.raw.
  Result<RgbaImage> importReference(const Frame& frame, FrameResult& r) const {
    if (!isBayer(frame.format)) return convertToRgbaCpu(frame);
    Result<BayerSetup> setup = configureBayer(frame.format, frame.width, frame.height, o_);
    if (!setup) return setup.error();
    Result<std::vector<uint16_t>> values = unpackBayerFrame(frame, setup->unpacking);
    if (!values) return values.error();
    const DemosaicParams& d = setup->demosaic;
    Result<RawSiteHistograms> stats = rawSiteHistograms(
        *values, frame.width, frame.height, d.order, d.bit_depth, {d.black, d.white}, setup->bins);
    if (!stats) return stats.error();
    r.raw = std::move(stats.value());
    return demosaicReference(*values, frame.width, frame.height, d);
  }

  // The YUV vectorscope from the frame's own chroma, the rest from the processed image.
  ScopeCounts countScopes(const Frame& frame, const RgbaImage* luma) const {
    ScopeCounts s;
    s.columns = scopeColumns(o_.scopes, image_.width);
    if (o_.scopes.waveform) s.waveform = waveformReference(image_, luma, s.columns);
    if (o_.scopes.parade) s.parade = paradeReference(image_, s.columns);
    if (o_.scopes.vectorscope &&
        !vectorscopeSourceReference(frame, s.vectorscope, s.vectorscope_samples)) {
      s.vectorscope = vectorscopeRgbReference(image_);
      s.vectorscope_samples = uint64_t(image_.width) * uint64_t(image_.height);
    }
    return s;
  }

  HistogramData count(int bins, const RgbaImage* luma) const {
    const std::string& channels = o_.histogram.channels;
    if (!luma) {
      HistogramData h;
      h.bins = bins;
      h.channels = channels;
      h.counts = histogramReference(image_, bins, channels, kPipelineLuma);
      return h;
    }
    const std::string rgb = withoutLuma(channels);
    std::vector<uint32_t> rgb_counts;
    if (!rgb.empty()) rgb_counts = histogramReference(image_, bins, rgb, kPipelineLuma);
    return mergeLuma(channels, bins, rgb, rgb_counts,
                     histogramReference(*luma, bins, "l", kPipelineLuma));
  }

  PipelineConfig o_;
  RgbaImage image_;
  bool warned_no_source_luma_ = false;
  std::optional<HostHealth> health_;
};

}  // namespace

Status checkHostBlurTaps(const PipelineConfig& options) {
  if (options.blur) {
    BlurParams p;
    p.filter_dim = options.blur->taps;
    p.iterations = options.blur->iterations;
    if (p.filter_dim > p.maxFilterDim())
      return fail(ErrorCode::kInvalidArgument, "blur: taps must be at most ",
                  std::to_string(p.maxFilterDim()), ", got ", std::to_string(p.filter_dim));
  }
  return Status::success();
}

Result<std::unique_ptr<PipelineBackend>> createReferenceBackend(const PipelineConfig& options) {
  if (Status s = checkHostBlurTaps(options); !s) return s.error();
  return std::unique_ptr<PipelineBackend>(new ReferenceBackend(options));
}

}  // namespace esf
