// Backend::kCpu: the CPU executor (core/cpu). Without blur or resize, import and histogram are
// one pass: each thread converts a stripe of rows and counts each row while it is in cache (and
// adds its health sums). The
// counts are of all 256 values per channel, so the configured bins and the 256-value histogram
// of the stats both fold from the same pass. With only L from the source's Y bytes and no sink
// that reads the image, nothing is converted at all. Results equal the references' bit for bit.
#include <cstring>
#include <optional>

#include "base/pixel_format.hpp"
#include "core/cpu/cpu_bayer.hpp"
#include "core/cpu/cpu_blur.hpp"
#include "core/cpu/cpu_histogram.hpp"
#include "core/cpu/cpu_import.hpp"
#include "core/cpu/cpu_resize.hpp"
#include "core/cpu/cpu_scopes.hpp"
#include "core/pipeline/backend_common.hpp"
#include "core/pipeline/bayer_frame.hpp"
#include "core/pipeline/frame_plan.hpp"
#include "core/pipeline/host_health.hpp"
#include "core/pipeline/pipeline_backend.hpp"
#include "core/stages/resize.hpp"
#include "core/stages/scopes_reference.hpp"
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

  Status configureFor(const Frame& frame) override {
    if (!planFor(frame.format).bayer) {
      bayer_.reset();
      return Status::success();
    }
    if (bayer_ && bayer_->format == frame.format && bayer_->width == frame.width &&
        bayer_->height == frame.height)
      return Status::success();
    bayer_.reset();
    Result<BayerSetup> bayer = configureBayer(frame.format, frame.width, frame.height, o_);
    if (!bayer) return bayer.error();
    bayer_ = std::move(bayer.value());
    return Status::success();
  }

  Result<FrameResult> process(const Frame& frame) override {
    const FramePlan& plan = planFor(frame.format);
    FrameResult r;
    ValueCounts values;
    double fold_ms = 0;  // the fused pass's remaining histogram work: summing and folding
    const RgbaImage* image = &image_;
    for (const PlanPass& pass : plan.passes) {
      switch (pass.kind) {
        case PassKind::kImportCount: {
          WallTimer timer;
          if (Status s = importAndCount(frame, plan, r); !s) return s.error();
          r.timings.push_back({"import", timer.ms(), false});  // the counting included
          WallTimer drain_timer;
          for (HistogramCounter& counter : counters_) counter.drainInto(values);
          fold_ms = drain_timer.ms();
          break;
        }
        case PassKind::kImport:
        case PassKind::kDemosaic: {
          WallTimer timer;
          if (Status s = importImage(frame, pass.lanes == 2, r); !s) return s.error();
          r.timings.push_back({"import", timer.ms(), false});
          luma_image_ = &luma_;
          break;
        }
        case PassKind::kHealth:
          // The fused pass added each row's sums; the L counts are the health luma's own when L
          // is counted from that same luma.
          if (pass.reads == PlanData::kImage && !plan.has(PassKind::kImportCount))
            health_->process(frame, &image_, r);
          else
            health_->process(frame, nullptr, r, true,
                             lumaCounted(plan) ? &values.counts[3] : nullptr);
          break;
        case PassKind::kBlur: {
          WallTimer t;
          blurCpu(*image, o_.blur->taps, o_.blur->iterations, pool_, blurred_, scratch_);
          image = &blurred_;
          if (pass.lanes == 2) {
            blurCpu(*luma_image_, o_.blur->taps, o_.blur->iterations, pool_, luma_blurred_,
                    scratch_);
            luma_image_ = &luma_blurred_;
          }
          r.timings.push_back({"blur", t.ms(), false});
          break;
        }
        case PassKind::kResize: {
          const auto [w, h] = *o_.resize;
          if (Status c = checkResizeSize(image->width, image->height, w, h); !c) return c.error();
          WallTimer t;
          resizeCpu(*image, w, h, pool_, resized_);
          image = &resized_;
          if (pass.lanes == 2) {
            resizeCpu(*luma_image_, w, h, pool_, luma_resized_);
            luma_image_ = &luma_resized_;
          }
          r.timings.push_back({"resize", t.ms(), false});
          break;
        }
        case PassKind::kHistogram: {
          if (histogramFromScopes(plan)) break;  // the scopes pass sums it from its columns
          WallTimer timer;
          if (pass.reads == PlanData::kImage) {
            values = countValues(*image, rgbChannels(plan), kPipelineLuma, pool_);
            if (pass.lanes == 2)
              values.counts[3] =
                  countValues(*luma_image_, ChannelSet::of("l"), kPipelineLuma, pool_).counts[3];
          }
          foldHistogram(values, r, fold_ms + timer.ms());
          break;
        }
        case PassKind::kScopes: {
          WallTimer timer;
          ScopeCounts counts;
          const bool from_source =
              o_.scopes.vectorscope && scopes_.countSource(frame, pool_, counts);
          scopes_.count(*image, pass.lanes == 2 ? luma_image_ : nullptr, o_.scopes,
                        scopeColumns(o_.scopes, image->width), !from_source, pool_, counts);
          r.scopes = std::move(counts);
          r.timings.push_back({"scopes", timer.ms(), false});
          if (histogramFromScopes(plan)) {
            WallTimer sum_timer;
            values = valuesOfScopes(*r.scopes);
            foldHistogram(values, r, sum_timer.ms());
          }
          break;
        }
        case PassKind::kScale: {
          const std::string& channels = o_.histogram.channels;
          const HistogramData values256{kValueCount, channels,
                                        foldBins(values, kValueCount, channels)};
          if (plan.result_image)
            finishHostFrameResult(r, frame, values256, *image);
          else
            finishHostFrameResult(r, frame, values256, frame.width, frame.height);
          break;
        }
        case PassKind::kPack:
        case PassKind::kHistogram256:
          return fail(ErrorCode::kInternal, "frame plan: a GPU pass in the CPU executor's plan");
      }
    }
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
    if (!plan_->bayer) return importCpu(frame, image_, pool_, on_row);
    if (!bayer_)
      return fail(ErrorCode::kInternal, "pipeline: a Bayer frame processed before configureFor()");
    Result<BayerInput> bayer = prepareBayer(frame, *bayer_, pool_);
    if (!bayer) return bayer.error();
    r.raw = std::move(bayer->stats);
    return demosaicCpu(bayer->values, frame.width, frame.height, bayer_->demosaic, image_, pool_,
                       on_row);
  }

  // The plan for `format`'s frames, made at the first frame of each format.
  const FramePlan& planFor(PixelFormat format) {
    if (plan_ && plan_->format == format) return *plan_;
    plan_ = planFrame(FramePlanInputs::of(o_, format, PlanExecutor::kCpu));
    logInfo("frame plan: " + plan_->describe());
    if (plan_->source_luma_missing && !warned_no_source_luma_) {
      logWarning(std::string("source luma: ") + formatName(format) +
                 " frames have no luma plane; L comes from RGB");
      warned_no_source_luma_ = true;
    }
    return *plan_;
  }

  // Every histogram channel is in the scopes' counts, of the same image and lane (the waveform's
  // L is the histogram's, the parade's planes R, G and B): the histogram is then their columns
  // summed, not a second count of the image.
  bool histogramFromScopes(const FramePlan& plan) const {
    if (!plan.has(PassKind::kScopes)) return false;
    for (char c : o_.histogram.channels)
      if (c == 'l' ? !o_.scopes.waveform : !o_.scopes.parade) return false;
    return true;
  }
  static ValueCounts valuesOfScopes(const ScopeCounts& s) {
    ValueCounts v;
    const size_t columns = size_t(s.columns);
    auto sum = [&](const std::vector<uint32_t>& counts, size_t first,
                   std::array<uint64_t, 256>& to) {
      for (size_t c = 0; c < columns; ++c)
        for (size_t level = 0; level < 256; ++level) to[level] += counts[first + c * 256 + level];
    };
    if (!s.waveform.empty()) sum(s.waveform, 0, v.counts[3]);
    for (size_t ch = 0; ch < 3 && !s.parade.empty(); ++ch)
      sum(s.parade, ch * columns * 256, v.counts[ch]);
    return v;
  }
  void foldHistogram(const ValueCounts& values, FrameResult& r, double ms) const {
    const std::string& channels = o_.histogram.channels;
    r.hist =
        HistogramData{o_.histogram.bins, channels, foldBins(values, o_.histogram.bins, channels)};
    r.timings.push_back({"histogram", ms, false});
  }

  // The channels counted on the RGB image: L is counted on the source's luma instead.
  ChannelSet rgbChannels(const FramePlan& plan) const {
    ChannelSet channels = ChannelSet::of(o_.histogram.channels);
    if (plan.source_luma) channels.l = false;
    return channels;
  }
  // Whether the fused pass's L counts are the health luma's: L from the Y bytes, or from the
  // RGBA pixels of a frame without Y bytes.
  bool lumaCounted(const FramePlan& plan) const {
    return plan.source_luma || (plan.health_from_rgb && rgbChannels(plan).l);
  }

  // Import and histogram in one pass over each stripe of rows. The health luma goes into its
  // plane while each row is in cache: the row's own Y bytes (YUV, GREY), else the L of its RGBA
  // pixels, the counter's L (kPipelineLuma). The health sums of each row follow on the same
  // thread (HostHealth::startRows).
  Status importAndCount(const Frame& frame, const FramePlan& plan, FrameResult& r) {
    std::vector<HistogramCounter>& counters = countersFor(rgbChannels(plan));
    uint8_t* health_luma = health_ ? health_->lumaPlane(frame) : nullptr;
    const bool luma_counted = lumaCounted(plan);
    if (health_) health_->startRows(frame, !luma_counted);
    const size_t width = size_t(frame.width);
    const bool source_luma = plan.source_luma;
    auto count = [&](int y, const uint8_t* rgba, const uint8_t* luma, int band) {
      HistogramCounter& counter = counters[size_t(band)];
      uint8_t* health_row = health_luma ? health_luma + size_t(y) * width : nullptr;
      if (rgba) counter.countRgba(rgba, frame.width, luma ? nullptr : health_row);
      if (source_luma) counter.countLuma(luma, frame.width);
      if (health_row && luma) std::memcpy(health_row, luma, width);
      if (health_row) health_->addRow(y, band);
    };
    switch (plan.count_mode) {
      case CountMode::kLumaOnly:
        return importLumaCpu(frame, pool_, count);
      case CountMode::kRows:
        return importRowsCpu(frame, pool_, count);
      case CountMode::kImage:
        return importFrame(frame, r, count);
    }
    return Status::success();
  }

  // The import into image_, keeping the Y bytes as a grey image luma_ when `source_luma`.
  Status importImage(const Frame& frame, bool source_luma, FrameResult& r) {
    if (source_luma && (luma_.width != frame.width || luma_.height != frame.height))
      luma_ = RgbaImage(frame.width, frame.height);
    return importFrame(frame, r, [&](int y, const uint8_t*, const uint8_t* luma, int) {
      if (!source_luma) return;
      uint8_t* out = luma_.at(0, y);
      for (int x = 0; x < frame.width; ++x, out += 4)
        out[0] = out[1] = out[2] = luma[x], out[3] = 255;
    });
  }

  PipelineConfig o_;
  RowPool pool_;
  RgbaImage image_, luma_;  // imported
  RgbaImage blurred_, luma_blurred_, scratch_, resized_, luma_resized_;
  const RgbaImage* luma_image_ = &luma_;
  bool warned_no_source_luma_ = false;
  std::vector<HistogramCounter> counters_;  // the fused pass's, one a thread
  CpuScopes scopes_;
  ChannelSet counter_channels_;
  std::optional<HostHealth> health_;  // declared after pool_, which it uses
  std::optional<FramePlan> plan_;     // for the last frame's format
  std::optional<BayerSetup> bayer_;   // a Bayer plan's, for the last frame's size
};

}  // namespace

Result<std::unique_ptr<PipelineBackend>> createCpuExecutorBackend(const PipelineConfig& config) {
  if (Status s = checkHostBlurTaps(config); !s) return s.error();
  std::unique_ptr<CpuExecutorBackend> backend(new CpuExecutorBackend(config));
  if (const Status& started = backend->poolStatus(); !started) return started.error();
  return std::unique_ptr<PipelineBackend>(std::move(backend));
}

}  // namespace esf
