#include "core/stats/detectors.hpp"

namespace esf {

void DetectFigures::moveInto(FrameResult& result) {
  result.cropdetect = crop;
  result.blur = blur;
  result.block = block;
  *this = DetectFigures{};
}

Detectors::Detectors(const DetectConfig& config) {
  if (config.crop) crop_.emplace(*config.crop);
  if (config.blur) blur_.emplace(*config.blur);
  if (config.block) block_.emplace(*config.block);
}

DetectFigures Detectors::count(const Frame& frame) {
  DetectFigures f;
  if (!crop_ && !blur_ && !block_) return f;
  const std::optional<FfmpegPlanes> planes = ffmpegPlanes(frame);
  if (!planes) return f;
  if (crop_) f.crop = crop_->detect(*planes);
  if (blur_) f.blur = blur_->detect(*planes);
  if (block_) f.block = block_->detect(*planes);
  return f;
}

}  // namespace esf
