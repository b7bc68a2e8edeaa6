#include "core/pipeline/gpu_bayer.hpp"

#include <utility>
#include <vector>

#include "core/pipeline/backend_common.hpp"

namespace esf {

Status GpuBayer::configureFor(const Frame& frame, const FramePlan& plan) {
  if (plan.passes.front().kind != PassKind::kDemosaic) return Status::success();
  const PipelineConfig& config = config_;
  setup_.reset();
  raw_setup_.reset();
  Result<BayerSetup> setup = configureBayer(frame.format, frame.width, frame.height, config);
  if (!setup) return setup.error();
  if (!host_pool_) host_pool_.emplace(config.threads);
  if (!demosaic_) {
    Result<Demosaic> d = Demosaic::create(gl_);
    if (!d) return d.error();
    Result<RawHistograms> raw =
        RawHistograms::create(gl_, RawHistogramsParams::defaultsFor(gl_), setup->bins);
    if (!raw) return raw.error();
    // Both or neither: a later setup must not find the demosaic without the statistics.
    demosaic_.emplace(std::move(d.value()));
    raw_histograms_.emplace(std::move(raw.value()));
  }
  const DemosaicParams& d = setup->demosaic;
  raw_setup_ = RawHistogramsSetup{d.order, d.bit_depth, {d.black, d.white}, setup->bins};
  setup_ = std::move(setup.value());
  return Status::success();
}

Result<ImportedFrame> GpuBayer::import(const Frame& frame, GpuImage& target) {
  slot_.setCounted(false);
  if (!setup_ || setup_->format != frame.format || setup_->width != frame.width ||
      setup_->height != frame.height)
    return fail(ErrorCode::kInternal, "bayer: a frame imported before its setup");
  WallTimer upload_timer;
  Result<std::vector<uint16_t>> values = unpackBayer(frame, *setup_, *host_pool_);
  if (!values) return values.error();
  if (Status s = demosaic_->upload(*values, frame.width, frame.height); !s) return s.error();
  ImportedFrame out;
  out.upload_ms = upload_timer.ms();
  if (Status s =
          raw_histograms_->run(demosaic_->rawTexture(), frame.width, frame.height, *raw_setup_);
      !s)
    return s.error();
  if (Status s = demosaic_->run(setup_->demosaic, target); !s) return s.error();
  out.rgba = target.texture();
  out.width = frame.width, out.height = frame.height;
  slot_.setCounted(true);
  return out;
}

void GpuBayer::addReadback(FrameReadback& readback) {
  if (raw_histograms_) slot_.addTo(readback, raw_histograms_->resultWords());
}

Status GpuBayer::collect(const Frame&, FrameResult& r, const FrameReadback& readback) {
  const std::optional<std::span<const uint32_t>> words = slot_.wordsIn(readback);
  if (!words) return Status::success();
  Result<RawSiteHistograms> raw = raw_histograms_->histogramsOf(*words);
  if (!raw) return raw.error();
  r.raw = std::move(raw.value());
  return Status::success();
}

}  // namespace esf
