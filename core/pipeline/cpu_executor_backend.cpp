// Backend::kCpu: the CPU executor (core/cpu). Without blur or resize, import and histogram are
// one pass: each thread converts a band of rows and counts each row while it is in cache. The
// counts are of all 256 values per channel, so the configured bins and the 256-value histogram
// of the stats both fold from the same pass. Results equal the references' bit for bit.
#include <optional>

#include "capture/pixel_format.hpp"
#include "core/cpu/cpu_bayer.hpp"
#include "core/cpu/cpu_blur.hpp"
#include "core/cpu/cpu_histogram.hpp"
#include "core/cpu/cpu_import.hpp"
#include "core/cpu/cpu_resize.hpp"
#include "core/pipeline/backend_common.hpp"
#include "core/pipeline/bayer_frame.hpp"
#include "core/pipeline/pipeline_backend.hpp"
#include "core/stages/resize.hpp"
#include "core/stats/exposure_stats.hpp"
#include "esframe/base/log.hpp"

namespace esf {
namespace {

constexpr LumaWeights kLuma = LumaWeights::kBt709;

class CpuExecutorBackend : public PipelineBackend {
 public:
  explicit CpuExecutorBackend(const PipelineConfig& o) : o_(o), pool_(o.threads) {}

  int threads() const override { return pool_.threads(); }

  Result<FrameResult> process(const Frame& frame) override {
    FrameResult r;
    const bool source_luma = usesSourceLuma(frame);
    ChannelSet rgb_channels = ChannelSet::of(o_.histogram.channels);
    if (source_luma) rgb_channels.l = false;  // L from the Y bytes instead
    ValueCounts values;
    double fold_ms = 0;  // the fused pass's remaining histogram work: summing and folding
    if (!o_.blur && !o_.resize) {
      WallTimer timer;
      std::vector<HistogramCounter> counters(size_t(pool_.threads()),
                                             HistogramCounter(rgb_channels, kLuma));
      Status s =
          importFrame(frame, r, [&](int, const uint8_t* rgba, const uint8_t* luma, int band) {
            HistogramCounter& counter = counters[size_t(band)];
            counter.countRgba(rgba, frame.width);
            if (source_luma) counter.countLuma(luma, frame.width);
          });
      if (!s) return s.error();
      r.timings.push_back({"import", timer.ms(), false});  // the counting included
      WallTimer drain_timer;
      for (HistogramCounter& counter : counters) counter.drainInto(values);
      fold_ms = drain_timer.ms();
    } else {
      Status s = importBlurResize(frame, source_luma, r);
      if (!s) return s.error();
      WallTimer timer;
      values = countValues(image_, rgb_channels, kLuma, pool_);
      if (source_luma)
        values.counts[3] = countValues(luma_, ChannelSet::of("l"), kLuma, pool_).counts[3];
      r.timings.push_back({"histogram", timer.ms(), false});
    }

    WallTimer fold_timer;
    const std::string& channels = o_.histogram.channels;
    const int bins = o_.histogram.bins;
    r.hist = HistogramData{bins, channels, foldBins(values, bins, channels)};
    const HistogramData values256{kValueCount, channels, foldBins(values, kValueCount, channels)};
    if (!o_.blur && !o_.resize)
      r.timings.push_back({"histogram", fold_ms + fold_timer.ms(), false});
    finishCpuFrameResult(r, frame, values256, image_);
    return r;
  }

 private:
  // importCpu, or for Bayer frames the demosaic (its raw statistics into r.raw).
  Status importFrame(const Frame& frame, FrameResult& r, const ImportedRow& on_row) {
    if (!isBayer(frame.format)) return importCpu(frame, image_, pool_, on_row);
    Result<BayerInput> bayer = prepareBayer(frame, o_);
    if (!bayer) return bayer.error();
    r.raw = std::move(bayer->stats);
    return demosaicCpu(bayer->values, frame.width, frame.height, bayer->demosaic, image_, pool_,
                       on_row);
  }

  // LumaSource::kSource with an L channel and a frame that has a luma plane; otherwise L comes
  // from RGB, said once (as the reference backend says it).
  bool usesSourceLuma(const Frame& frame) {
    if (o_.luma != LumaSource::kSource || o_.histogram.channels.find('l') == std::string::npos)
      return false;
    const PixelFormatInfo& info = pixelFormatInfo(frame.format);
    if (info.y.present() && info.packing != Packing::kCompressed) return true;
    if (!warned_no_source_luma_) {
      logWarning(std::string("source luma: ") + formatName(frame.format) +
                 " frames have no luma plane; L comes from RGB");
      warned_no_source_luma_ = true;
    }
    return false;
  }

  // The unfused path: import (keeping the Y bytes as a grey image when L comes from the source),
  // then blur and resize both images.
  Status importBlurResize(const Frame& frame, bool source_luma, FrameResult& r) {
    WallTimer import_timer;
    if (source_luma) luma_ = RgbaImage(frame.width, frame.height);
    Status s = importFrame(frame, r, [&](int y, const uint8_t*, const uint8_t* luma, int) {
      if (!source_luma) return;
      uint8_t* out = luma_.at(0, y);
      for (int x = 0; x < frame.width; ++x, out += 4)
        out[0] = out[1] = out[2] = luma[x], out[3] = 255;
    });
    if (!s) return s;
    r.timings.push_back({"import", import_timer.ms(), false});
    if (o_.blur) {
      WallTimer t;
      image_ = blurCpu(image_, o_.blur->taps, o_.blur->iterations, pool_);
      if (source_luma) luma_ = blurCpu(luma_, o_.blur->taps, o_.blur->iterations, pool_);
      r.timings.push_back({"blur", t.ms(), false});
    }
    if (o_.resize) {
      const auto [w, h] = *o_.resize;
      if (Status c = checkResizeSize(image_.width, image_.height, w, h); !c) return c;
      WallTimer t;
      image_ = resizeCpu(image_, w, h, pool_);
      if (source_luma) luma_ = resizeCpu(luma_, w, h, pool_);
      r.timings.push_back({"resize", t.ms(), false});
    }
    return Status::success();
  }

  PipelineConfig o_;
  RowPool pool_;
  RgbaImage image_, luma_;
  bool warned_no_source_luma_ = false;
};

}  // namespace

Result<std::unique_ptr<PipelineBackend>> createCpuExecutorBackend(const PipelineConfig& config) {
  if (Status s = checkCpuBlurTaps(config); !s) return s.error();
  return std::unique_ptr<PipelineBackend>(new CpuExecutorBackend(config));
}

}  // namespace esf
