#include "core/pipeline/gpu_luma_signalstats.hpp"

#include <optional>
#include <utility>

#include "core/stats/signalstats.hpp"

namespace esf {

Status GpuLumaSignalstats::configureFor(const Frame& frame, const FramePlan&) {
  const PixelFormat format = frame.format;
  yuv_ = isYuv(format);
  if (!yuv_) return Status::success();
  y_in_green_ = lumaInGreen(format);
  if (stage_) return Status::success();
  Result<LumaSignalstats> made =
      LumaSignalstats::create(gl_, LumaSignalstatsParams::defaultsFor(gl_), tout_, vrep_);
  if (!made) return made.error();
  stage_.emplace(std::move(made.value()));
  return Status::success();
}

Status GpuLumaSignalstats::count(const ImportedFrame& imported) {
  slot_.setCounted(false);
  if (!yuv_ || !stage_) return Status::success();
  if (Status s = stage_->run(lumaPlaneOf(imported, y_in_green_)); !s) return s;
  slot_.setCounted(true);
  return Status::success();
}

void GpuLumaSignalstats::addReadback(FrameReadback& readback) {
  if (stage_) slot_.addTo(readback, stage_->resultWords());
}

Status GpuLumaSignalstats::collect(const Frame& frame, FrameResult& r,
                                   const FrameReadback& readback) {
  const std::optional<std::span<const uint32_t>> words = slot_.wordsIn(readback);
  if (!words) return Status::success();
  if (!r.signalstats)
    return fail(ErrorCode::kInternal, "signalstats: TOUT and VREP counted without the chroma's");
  Result<LumaSignalstatsCounts> counts = stage_->countsOf(*words);
  if (!counts) return counts.error();
  putLumaCounts(*r.signalstats, frame.width, frame.height,
                tout_ ? std::optional(counts->outlier_pixels) : std::nullopt,
                vrep_ ? std::optional(counts->repeated_rows) : std::nullopt);
  return Status::success();
}

}  // namespace esf
