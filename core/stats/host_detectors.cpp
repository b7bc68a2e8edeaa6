#include "core/stats/host_detectors.hpp"

#include "base/pixel_format.hpp"

namespace esf {

void DetectFigures::moveInto(FrameResult& result) {
  result.cropdetect = crop;
  if (!counted.blur) result.blur = blur;
  if (!counted.block) result.block = block;
  *this = DetectFigures{};
}

HostDetectors::HostDetectors(const DetectConfig& config) {
  if (config.crop) crop_.emplace(*config.crop);
  if (config.blur) {
    blur_.emplace(*config.blur);
    blur_planes_ = config.blur->planes;
  }
  if (config.block) {
    block_.emplace(*config.block);
    block_planes_ = config.block->planes;
  }
}

DetectFigures HostDetectors::count(const Frame& frame, DetectorsCounted counted) {
  DetectFigures f;
  f.counted = counted;
  const bool blur = blur_ && !counted.blur, block = block_ && !counted.block;
  if (!crop_ && !blur && !block) return f;
  // cropdetect reads plane 0, or the three colour planes of RGB frames.
  const bool rgb = pixelFormatInfo(frame.format).colour == ColourFamily::kRgb;
  const unsigned wanted = (crop_ ? (rgb ? 7u : 1u) : 0u) | (blur ? unsigned(blur_planes_) : 0u) |
                          (block ? unsigned(block_planes_) : 0u);
  const std::optional<FfmpegPlanes> planes = ffmpegPlanes(frame, wanted);
  if (!planes) return f;
  if (crop_) f.crop = crop_->detect(*planes);
  if (blur) f.blur = blur_->detect(*planes);
  if (block) f.block = block_->detect(*planes);
  return f;
}

}  // namespace esf
