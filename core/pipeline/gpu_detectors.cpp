#include "core/pipeline/gpu_detectors.hpp"

#include <utility>

#include "core/stats/blockdetect.hpp"

namespace esf {

bool GpuPlaneDetector::locatePlanes(PixelFormat format) {
  format_ = format;
  layout_ = importedPlaneLayoutOf(format);
  return layout_.has_value();
}

Status GpuPlaneDetector::count(const ImportedFrame& imported) {
  slot_.setCounted(false);
  if (!counts(format_)) return Status::success();
  Result<std::vector<ImportedPlane>> planes =
      requireImportedPlanes(imported, *layout_, name_, format_);
  if (!planes) return planes.error();
  if (Status s = countPlanes(imported, *planes); !s) return s;
  slot_.setCounted(true);
  return Status::success();
}

void GpuPlaneDetector::addReadback(FrameReadback& readback) {
  if (made()) slot_.addTo(readback, resultWords());
}

Status GpuPlaneDetector::collect(const Frame&, FrameResult& r, const FrameReadback& readback) {
  const std::optional<std::span<const uint32_t>> words = slot_.wordsIn(readback);
  return words ? figureInto(r, *words) : Status::success();
}

Status GpuBlockDetect::configureFor(PixelFormat format, bool packed_import) {
  if (!locatePlanes(format)) return Status::success();
  if (!stage_) {
    Result<BlockDetect> made = BlockDetect::create(gl_, BlockDetectParams::defaultsFor(gl_));
    if (!made) return made.error();
    stage_.emplace(std::move(made.value()));
  }
  if (packed_import && layout()->in_rgba) return stage_->preparePacked();
  return Status::success();
}

Status GpuBlockDetect::configureFor(const Frame& frame, const FramePlan& plan) {
  return configureFor(frame.format, plan.passes.front().writes == PlanData::kPacked);
}

Status GpuBlockDetect::countPlanes(const ImportedFrame& imported,
                                   const std::vector<ImportedPlane>& planes) {
  if (Status s = stage_->beginFrame(imported.width, imported.height); !s) return s;
  for (size_t p = 0; p < planes.size(); ++p) {
    if (!((config_.planes >> p) & 1)) continue;
    const ImportedPlane& in = planes[p];
    BlockDetectPlane plane;
    plane.texture = in.texture, plane.packed = in.packed;
    plane.texel_step = in.step_x, plane.texel_offset = in.offset_x, plane.channel = in.channel;
    plane.width = in.width, plane.height = in.height;
    if (Status s = stage_->runPlane(plane); !s) return s;
  }
  return Status::success();
}

Status GpuBlockDetect::figureInto(FrameResult& r, std::span<const uint32_t> words) {
  Result<std::vector<float>> figures = stage_->planeFiguresOf(words, config_);
  if (!figures) return figures.error();
  r.block = meanOfPlanes(figures.value());
  return Status::success();
}

Status GpuBlurDetect::configureFor(const Frame& frame, const FramePlan&) {
  if (!locatePlanes(frame.format) || stage_) return Status::success();  // made once
  Result<BlurDetect> made = BlurDetect::create(gl_, BlurDetectParams::defaultsFor(gl_), config_);
  if (made) stage_.emplace(std::move(made.value()));
  return made ? Status::success() : Status(made.error());
}

Status GpuBlurDetect::countPlanes(const ImportedFrame&, const std::vector<ImportedPlane>& planes) {
  return stage_->run(planes);
}

Status GpuBlurDetect::figureInto(FrameResult& r, std::span<const uint32_t> words) {
  Result<float> blur = stage_->figureOf(words);
  if (!blur) return blur.error();
  r.blur = blur.value();
  return Status::success();
}

}  // namespace esf
