#pragma once
// The GPU backend's blockdetect (PipelineConfig::detect.block): counted at the import from the
// planes ffmpeg's filter reads (core/stats/ffmpeg_planes.hpp), as the import's textures hold them
// (zero-copy frames too): Y, U, V of YUV frames from their plane textures, Y of GREY, and G, B,
// R (A) of RGB frames from the import's RGBA image or packed buffer. Each plane's row 0 and
// column 0 come back in the frame's one read-back, and collect() puts the figure into r.block.
// The host then leaves blockdetect and its state alone for these frames
// (PipelineBackend::detectorsCounted); frames ffmpeg does not take (Bayer, compressed) are
// not counted and leave the GPU's state as it was.
#include <optional>
#include <vector>

#include "base/pixel_format.hpp"
#include "core/import/frame_import.hpp"
#include "core/pipeline/frame_readback.hpp"
#include "core/stages/block_detect.hpp"
#include "core/stages/imported_planes.hpp"
#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"
#include "esframe/pipeline_config.hpp"
#include "platform/gl_context.hpp"

namespace esf {

class GpuBlockDetect {
 public:
  GpuBlockDetect(GlContext& gl, const BlockDetectConfig& config) : gl_(gl), config_(config) {}
  // Whether `config` asks for it: a GPU backend makes one only then.
  static bool asked(const PipelineConfig& config) { return config.detect.block.has_value(); }
  // The stage, made before any frame's time is taken, and where `format`'s planes lie in what
  // the import leaves (`packed_import`: the RGB lands in a packed buffer, not an image).
  Status configureFor(PixelFormat format, bool packed_import);
  // Whether `frame`'s figure comes from here (its format is the configured one and counted).
  bool counts(const Frame& frame) const { return layout_ && frame.format == format_; }
  // At the import: the frame's planes.
  Status count(const ImportedFrame& imported);
  // After the frame's GPU work: lists the planes' slices in its read-back.
  void addReadback(FrameReadback& readback);
  // After the read-back: the figure into r.block.
  Status collect(FrameResult& r, const FrameReadback& readback);
  // Testing aid: fills the stage's slices buffer (nothing before the first configureFor()).
  Status poison(uint32_t pattern) { return stage_ ? stage_->poison(pattern) : Status::success(); }

 private:
  GlContext& gl_;
  BlockDetectConfig config_;
  std::optional<BlockDetect> stage_;
  PixelFormat format_{};
  std::optional<ImportedPlaneLayout> layout_;  // of format_; none: its frames are not counted
  FrameResultSlot slot_;
};

}  // namespace esf
