// Backend::kCpu: the CPU executor (core/cpu). Without blur or resize, import and histogram are
// one pass: each thread converts a stripe of rows and counts each row while it is in cache (and
// adds its health sums). The
// counts are of all 256 values per channel, so the configured bins and the 256-value histogram
// of the stats both fold from the same pass. With only L from the source's Y bytes and no sink
// that reads the image, nothing is converted at all. Results equal the references' bit for bit.
#include <cstring>
#include <optional>

#include "capture/pixel_format.hpp"
#include "core/cpu/cpu_bayer.hpp"
#include "core/cpu/cpu_blur.hpp"
#include "core/cpu/cpu_histogram.hpp"
#include "core/cpu/cpu_import.hpp"
#include "core/cpu/cpu_resize.hpp"
#include "core/pipeline/backend_common.hpp"
#include "core/pipeline/bayer_frame.hpp"
#include "core/pipeline/host_health.hpp"
#include "core/pipeline/pipeline_backend.hpp"
#include "core/stages/resize.hpp"
#include "core/stats/exposure_stats.hpp"
#include "esframe/base/log.hpp"

namespace esf {
namespace {

// The health luma of frames without Y bytes is BT.709 (healthLumaPlane), the L the counters
// write for it.
static_assert(kPipelineLuma == LumaWeights::kBt709);

class CpuExecutorBackend : public PipelineBackend {
 public:
  explicit CpuExecutorBackend(const PipelineConfig& o) : o_(o), pool_(o.threads) {
    if (o.health) health_.emplace(*o.health, &pool_);
  }
  void endStream(std::vector<HealthEvent>& events) override {
    if (health_) health_->finish(events);
  }

  int threads() const override { return pool_.threads(); }
  const Status& poolStatus() const { return pool_.status(); }

  Result<FrameResult> process(const Frame& frame) override {
    FrameResult r;
    const bool source_luma = usesSourceLuma(frame);
    ChannelSet rgb_channels = ChannelSet::of(o_.histogram.channels);
    if (source_luma) rgb_channels.l = false;  // L from the Y bytes instead
    const bool fused = !o_.blur && !o_.resize;
    // Only L, from the Y bytes, and nobody reads the image: no conversion at all.
    const bool luma_only = fused && source_luma && !o_.image_needed && !rgb_channels.r &&
                           !rgb_channels.g && !rgb_channels.b;
    // Nobody reads the image: each row is counted from a scratch row and no image is written.
    const bool rows_only = fused && !o_.image_needed && !isBayer(frame.format);
    ValueCounts values;
    double fold_ms = 0;  // the fused pass's remaining histogram work: summing and folding
    const RgbaImage* image = &image_;
    if (fused) {
      WallTimer timer;
      std::vector<HistogramCounter>& counters = countersFor(rgb_channels);
      // The health luma goes into its plane while each row is in cache: the row's own Y bytes
      // (YUV, GREY), else the L of its RGBA pixels, the counter's L (kPipelineLuma).
      // The health sums of each row follow on the same thread (HostHealth::startRows).
      uint8_t* health_luma = health_ ? health_->lumaPlane(frame) : nullptr;
      // The L counts are the health luma's own when L is counted from that same luma: the Y
      // bytes, or the RGBA pixels of a frame without Y bytes.
      const bool luma_counted = source_luma || (!hasLumaPlane(frame) && rgb_channels.l);
      if (health_) health_->startRows(frame, !luma_counted);
      const size_t width = size_t(frame.width);
      auto count = [&](int y, const uint8_t* rgba, const uint8_t* luma, int band) {
        HistogramCounter& counter = counters[size_t(band)];
        uint8_t* health_row = health_luma ? health_luma + size_t(y) * width : nullptr;
        if (rgba) counter.countRgba(rgba, frame.width, luma ? nullptr : health_row);
        if (source_luma) counter.countLuma(luma, frame.width);
        if (health_row && luma) std::memcpy(health_row, luma, width);
        if (health_row) health_->addRow(y, band);
      };
      Status s = luma_only   ? importLumaCpu(frame, pool_, count)
                 : rows_only ? importRowsCpu(frame, pool_, count)
                             : importFrame(frame, r, count);
      if (!s) return s.error();
      r.timings.push_back({"import", timer.ms(), false});  // the counting included
      WallTimer drain_timer;
      for (HistogramCounter& counter : counters) counter.drainInto(values);
      fold_ms = drain_timer.ms();
      if (health_)
        health_->process(frame, nullptr, r, true, luma_counted ? &values.counts[3] : nullptr);
    } else {
      Result<const RgbaImage*> processed = importBlurResize(frame, source_luma, r);
      if (!processed) return processed.error();
      image = processed.value();
      WallTimer timer;
      values = countValues(*image, rgb_channels, kPipelineLuma, pool_);
      if (source_luma)
        values.counts[3] =
            countValues(*luma_image_, ChannelSet::of("l"), kPipelineLuma, pool_).counts[3];
      r.timings.push_back({"histogram", timer.ms(), false});
    }

    WallTimer fold_timer;
    const std::string& channels = o_.histogram.channels;
    const int bins = o_.histogram.bins;
    r.hist = HistogramData{bins, channels, foldBins(values, bins, channels)};
    const HistogramData values256{kValueCount, channels, foldBins(values, kValueCount, channels)};
    if (fused) r.timings.push_back({"histogram", fold_ms + fold_timer.ms(), false});
    if (luma_only || rows_only)
      finishHostFrameResult(r, frame, values256, frame.width, frame.height);
    else
      finishHostFrameResult(r, frame, values256, *image);
    return r;
  }

 private:
  // One counter a thread, kept from frame to frame (their tables are large once countLuma
  // counts pairs), cleared: a frame that failed may have left counts.
  std::vector<HistogramCounter>& countersFor(ChannelSet channels) {
    auto same = [](ChannelSet a, ChannelSet b) {
      return a.r == b.r && a.g == b.g && a.b == b.b && a.l == b.l;
    };
    if (counters_.size() != size_t(pool_.threads()) || !same(channels, counter_channels_)) {
      counters_.assign(size_t(pool_.threads()), HistogramCounter(channels, kPipelineLuma));
      counter_channels_ = channels;
    }
    for (HistogramCounter& counter : counters_) counter.clear();
    return counters_;
  }

  // importCpu, or for Bayer frames the demosaic (its raw statistics into r.raw).
  Status importFrame(const Frame& frame, FrameResult& r, const ImportedRow& on_row) {
    if (!isBayer(frame.format)) return importCpu(frame, image_, pool_, on_row);
    Result<BayerInput> bayer = prepareBayer(frame, o_, &pool_);
    if (!bayer) return bayer.error();
    r.raw = std::move(bayer->stats);
    return demosaicCpu(bayer->values, frame.width, frame.height, bayer->demosaic, image_, pool_,
                       on_row);
  }

  // Whether the frame has its own Y bytes, which importCpu hands to its row callback.
  static bool hasLumaPlane(const Frame& frame) {
    const PixelFormatInfo& info = pixelFormatInfo(frame.format);
    return info.y.present() && info.packing != Packing::kCompressed;
  }

  // LumaSource::kSource with an L channel and a frame that has a luma plane; otherwise L comes
  // from RGB, said once (as the reference backend says it).
  bool usesSourceLuma(const Frame& frame) {
    if (o_.luma != LumaSource::kSource || o_.histogram.channels.find('l') == std::string::npos)
      return false;
    if (hasLumaPlane(frame)) return true;
    if (!warned_no_source_luma_) {
      logWarning(std::string("source luma: ") + formatName(frame.format) +
                 " frames have no luma plane; L comes from RGB");
      warned_no_source_luma_ = true;
    }
    return false;
  }

  // The unfused path: import (keeping the Y bytes as a grey image when L comes from the source),
  // then blur and resize both images. Returns the processed RGBA image; luma_image_ points to the
  // processed grey one. The images are members, reused from frame to frame.
  Result<const RgbaImage*> importBlurResize(const Frame& frame, bool source_luma, FrameResult& r) {
    WallTimer import_timer;
    if (source_luma && (luma_.width != frame.width || luma_.height != frame.height))
      luma_ = RgbaImage(frame.width, frame.height);
    Status s = importFrame(frame, r, [&](int y, const uint8_t*, const uint8_t* luma, int) {
      if (!source_luma) return;
      uint8_t* out = luma_.at(0, y);
      for (int x = 0; x < frame.width; ++x, out += 4)
        out[0] = out[1] = out[2] = luma[x], out[3] = 255;
    });
    if (!s) return s.error();
    r.timings.push_back({"import", import_timer.ms(), false});
    if (health_) health_->process(frame, &image_, r);
    const RgbaImage* image = &image_;
    luma_image_ = &luma_;
    if (o_.blur) {
      WallTimer t;
      blurCpu(image_, o_.blur->taps, o_.blur->iterations, pool_, blurred_, scratch_);
      image = &blurred_;
      if (source_luma) {
        blurCpu(luma_, o_.blur->taps, o_.blur->iterations, pool_, luma_blurred_, scratch_);
        luma_image_ = &luma_blurred_;
      }
      r.timings.push_back({"blur", t.ms(), false});
    }
    if (o_.resize) {
      const auto [w, h] = *o_.resize;
      if (Status c = checkResizeSize(image->width, image->height, w, h); !c) return c.error();
      WallTimer t;
      resizeCpu(*image, w, h, pool_, resized_);
      image = &resized_;
      if (source_luma) {
        resizeCpu(*luma_image_, w, h, pool_, luma_resized_);
        luma_image_ = &luma_resized_;
      }
      r.timings.push_back({"resize", t.ms(), false});
    }
    return image;
  }

  PipelineConfig o_;
  RowPool pool_;
  RgbaImage image_, luma_;  // imported
  RgbaImage blurred_, luma_blurred_, scratch_, resized_, luma_resized_;
  const RgbaImage* luma_image_ = &luma_;
  bool warned_no_source_luma_ = false;
  std::vector<HistogramCounter> counters_;  // the fused pass's, one a thread
  ChannelSet counter_channels_;
  std::optional<HostHealth> health_;  // declared after pool_, which it uses
};

}  // namespace

Result<std::unique_ptr<PipelineBackend>> createCpuExecutorBackend(const PipelineConfig& config) {
  if (Status s = checkHostBlurTaps(config); !s) return s.error();
  std::unique_ptr<CpuExecutorBackend> backend(new CpuExecutorBackend(config));
  if (const Status& started = backend->poolStatus(); !started) return started.error();
  return std::unique_ptr<PipelineBackend>(std::move(backend));
}

}  // namespace esf
