#include "core/pipeline/gpu_histograms.hpp"

#include <string>
#include <utility>

#include "core/tuning/auto_params.hpp"
#include "esframe/base/log.hpp"

namespace esf {

Status GpuHistograms::configure(const GlContext& gl, int out_w, int out_h) {
  HistogramParams base;
  base.bins = config_.bins;
  base.channels = config_.channels;
  HistogramParams p;
  std::string why;
  if (!config_.strategy && !auto_refused_) {
    p = chooseHistogramParams(gl, out_w, out_h, &why, base);
  } else if (!config_.strategy) {
    p = HistogramParams::defaultsFor(gl);
    p.bins = base.bins;
    p.channels = base.channels;
    why = "histogram: the stage's defaults (the automatic choice was refused)";
  } else {
    p = HistogramParams::defaultsFor(gl);
    p.bins = base.bins;
    p.channels = base.channels;
    p.strategy = *config_.strategy;
    why = "histogram: strategy ";  // appended piecewise: GCC 12 -Wrestrict misfires on a + b + c
    why.append(histogramStrategyName(p.strategy)).append(" (configured)");
  }
  logInfo(why);
  const bool split = luma_ == LumaSource::kSource;
  if (Status s = binned_.configure(gl, p, split); !s) return s;
  Status fits = binned_.fitFrame(out_w, out_h);
  if (fits && p.bins != kValueCount) {
    HistogramParams v = p;
    v.bins = kValueCount;
    if (Status s = values_.configure(gl, v, split); !s) return s;
    fits = values_.fitFrame(out_w, out_h);
  }
  if (!fits) {
    if (config_.strategy || auto_refused_) return fits;
    logWarning(fits.error().message + "; using the histogram stage's defaults");
    auto_refused_ = true;
    return configure(gl, out_w, out_h);
  }
  reads_packed_ = p.source == ImageSource::kPackedBuffer;
  if (reads_packed_ && !packer_) {
    Result<RgbaPacker> packer = RgbaPacker::create(gl);
    if (!packer) return packer.error();
    packer_.emplace(std::move(packer.value()));
  }
  return Status::success();
}

Status GpuHistograms::dispatch(bool values, const GpuImage* rgb, const PackedRgbaBuffer* rgb_packed,
                               const GpuImage* luma, const PackedRgbaBuffer* luma_packed) {
  return (values ? values_ : binned_).dispatch(rgb, rgb_packed, luma, luma_packed);
}

void GpuHistograms::addReadback(FrameReadback& readback) {
  binned_at_ = readback.add(binned_.pendingWords());
  if (config_.bins != kValueCount) values_at_ = readback.add(values_.pendingWords());
}

Status GpuHistograms::collect(const FrameReadback& readback, HistogramData& bins,
                              HistogramData& values) {
  Result<HistogramData> binned = binned_.readFrom(readback.words(binned_at_));
  if (!binned) return binned.error();
  bins = std::move(binned.value());
  if (bins.bins == kValueCount) {
    values = bins;
    return Status::success();
  }
  Result<HistogramData> v = values_.readFrom(readback.words(values_at_));
  if (!v) return v.error();
  values = std::move(v.value());
  return Status::success();
}

}  // namespace esf
