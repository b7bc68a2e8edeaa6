#pragma once
// The GPU backend's blurdetect (PipelineConfig::detect's blur): counted at the import from the
// textures or packed buffer it made (zero-copy frames too) by the BlurDetect stage, whose block
// counts come back in the frame's one read-back; collect() puts the figure into r.blur. The host
// then leaves blurdetect, and its state, alone for the formats counted here (detectorsCounted:
// every format ffmpeg's filters take); the others (Bayer, compressed, deeper than 8 bits) have
// no figure and leave the GPU's state as it was.
#include <optional>

#include "base/pixel_format.hpp"
#include "core/import/frame_import.hpp"
#include "core/pipeline/frame_readback.hpp"
#include "core/stages/blur_detect.hpp"
#include "esframe/detectors.hpp"
#include "esframe/frame_result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

class GpuBlurDetect {
 public:
  GpuBlurDetect(GlContext& gl, const BlurDetectConfig& config) : gl_(gl), config_(config) {}
  // The stage, made before any frame's time is taken, and where `format`'s planes lie.
  Status configureFor(PixelFormat format);
  // Whether frames of `format` are counted here (the configured format, one ffmpeg's filters
  // take).
  bool counts(PixelFormat format) const { return layout_ && format == format_; }
  // At the import: the frame's block counts, from the planes the import made.
  Status count(const ImportedFrame& imported);
  // After the frame's GPU work: lists the counts the frame made in its read-back.
  void addReadback(FrameReadback& readback);
  // After the read-back: the figure into r.blur.
  Status collect(FrameResult& r, const FrameReadback& readback);

 private:
  GlContext& gl_;
  BlurDetectConfig config_;
  std::optional<BlurDetect> stage_;
  PixelFormat format_ = PixelFormat::kRGBA32;
  std::optional<ImportedPlaneLayout> layout_;  // of the configured format, where counted here
  FrameResultSlot slot_;
};

}  // namespace esf
