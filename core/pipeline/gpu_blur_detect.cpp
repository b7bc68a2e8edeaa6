#include "core/pipeline/gpu_blur_detect.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace esf {

Status GpuBlurDetect::configureFor(PixelFormat format) {
  format_ = format;
  layout_ = importedPlaneLayoutOf(format);
  if (!layout_ || stage_) return Status::success();  // made once, for the first format here
  Result<BlurDetect> made = BlurDetect::create(gl_, BlurDetectParams::defaultsFor(gl_), config_);
  if (made) stage_.emplace(std::move(made.value()));
  return made ? Status::success() : Status(made.error());
}

Status GpuBlurDetect::count(const ImportedFrame& imported) {
  slot_.setCounted(false);
  if (!layout_ || !stage_) return Status::success();
  Result<std::vector<ImportedPlane>> planes =
      requireImportedPlanes(imported, *layout_, "blurdetect", format_);
  if (!planes) return planes.error();
  Status ran = stage_->run(*planes);
  slot_.setCounted(ran.ok());
  return ran;
}

void GpuBlurDetect::addReadback(FrameReadback& readback) {
  if (stage_) slot_.addTo(readback, stage_->resultWords());
}

Status GpuBlurDetect::collect(FrameResult& r, const FrameReadback& readback) {
  if (const std::optional<std::span<const uint32_t>> words = slot_.wordsIn(readback)) {
    Result<float> blur = stage_->figureOf(*words);
    if (!blur) return blur.error();
    r.blur = blur.value();
  }
  return Status::success();
}

}  // namespace esf
