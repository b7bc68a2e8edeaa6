#include "core/pipeline/gpu_block_detect.hpp"

#include <utility>

#include "core/stats/blockdetect.hpp"

namespace esf {

Status GpuBlockDetect::configureFor(PixelFormat format, bool packed_import) {
  format_ = format;
  layout_ = importedPlaneLayoutOf(format);
  if (!layout_) return Status::success();
  if (!stage_) {
    Result<BlockDetect> made = BlockDetect::create(gl_, BlockDetectParams::defaultsFor(gl_));
    if (!made) {
      layout_.reset();
      return made.error();
    }
    stage_.emplace(std::move(made.value()));
  }
  if (packed_import && layout_->in_rgba) return stage_->preparePacked();
  return Status::success();
}

Status GpuBlockDetect::count(const ImportedFrame& imported) {
  slot_.setCounted(false);
  if (!layout_ || !stage_) return Status::success();
  Result<std::vector<ImportedPlane>> planes =
      requireImportedPlanes(imported, *layout_, "blockdetect", format_);
  if (!planes) return planes.error();
  if (Status s = stage_->beginFrame(imported.width, imported.height); !s) return s;
  for (size_t p = 0; p < planes->size(); ++p) {
    if (!((config_.planes >> p) & 1)) continue;
    const ImportedPlane& in = (*planes)[p];
    BlockDetectPlane plane;
    plane.texture = in.texture, plane.packed = in.packed;
    plane.texel_step = in.step_x, plane.texel_offset = in.offset_x, plane.channel = in.channel;
    plane.width = in.width, plane.height = in.height;
    if (Status s = stage_->runPlane(plane); !s) return s;
  }
  slot_.setCounted(true);
  return Status::success();
}

void GpuBlockDetect::addReadback(FrameReadback& readback) {
  if (stage_) slot_.addTo(readback, stage_->resultWords());
}

Status GpuBlockDetect::collect(FrameResult& r, const FrameReadback& readback) {
  const std::optional<std::span<const uint32_t>> words = slot_.wordsIn(readback);
  if (!words) return Status::success();
  Result<std::vector<float>> figures = stage_->planeFiguresOf(*words, config_);
  if (!figures) return figures.error();
  r.block = meanOfPlanes(figures.value());
  return Status::success();
}

}  // namespace esf
