#pragma once
// The GPU backend's blurdetect and blockdetect (PipelineConfig::detect's blur and block): each
// counts, at the import, ffmpeg's planes where the import left them (core/stages/
// imported_planes.hpp, zero-copy frames too): Y, U, V of YUV frames from their plane textures, Y
// of GREY, and G, B, R (A) of RGB frames from the import's RGBA image or packed buffer. What a
// frame counted comes back as one slice of its one read-back, and collect() puts the figure into
// r.blur or r.block. The host then leaves that detector and its state alone for the formats
// counted here (PipelineBackend::detectorsCounted: every format ffmpeg's filters take); frames of
// the others (Bayer, compressed, deeper than 8 bits) are not counted and leave the GPU's state as
// it was.
#include <optional>
#include <span>
#include <vector>

#include "base/pixel_format.hpp"
#include "core/pipeline/gpu_frame_extra.hpp"
#include "core/stages/block_detect.hpp"
#include "core/stages/blur_detect.hpp"
#include "core/stages/imported_planes.hpp"
#include "core/stages/stage_gl.hpp"
#include "esframe/detectors.hpp"
#include "platform/gl_context.hpp"

namespace esf {

// What the two share: the planes of the configured format, and the frame's slot.
class GpuPlaneDetector : public GpuFrameExtra {
 public:
  // Whether frames of `format` are counted here (the configured format, one ffmpeg takes, and
  // the stage made).
  bool counts(PixelFormat format) const { return layout_ && format == format_ && made(); }
  Status count(const ImportedFrame& imported) final;
  void addReadback(FrameReadback& readback) final;
  Status collect(const Frame& frame, FrameResult& r, const FrameReadback& readback) final;

 protected:
  explicit GpuPlaneDetector(const char* name) : name_(name) {}
  // Where `format`'s planes lie; false where its frames are not counted here.
  bool locatePlanes(PixelFormat format);
  const std::optional<ImportedPlaneLayout>& layout() const { return layout_; }

 private:
  // Whether the stage is made (configureFor() makes it for a counted format).
  virtual bool made() const = 0;
  // The stage's work on the frame's planes, in ffmpeg's order.
  virtual Status countPlanes(const ImportedFrame& imported,
                             const std::vector<ImportedPlane>& planes) = 0;
  // The stage's result words, and the figure from them into `r`.
  virtual GpuWords resultWords() const = 0;
  virtual Status figureInto(FrameResult& r, std::span<const uint32_t> words) = 0;

  const char* name_;
  PixelFormat format_ = PixelFormat::kRGBA32;
  std::optional<ImportedPlaneLayout> layout_;  // of format_; none: its frames are not counted
  FrameResultSlot slot_;
};

// A detector over its stage, made by the detector's configureFor(), and the detector's config.
template <typename Stage, typename Config>
class GpuPlaneStage : public GpuPlaneDetector {
 protected:
  GpuPlaneStage(const char* name, GlContext& gl, const Config& config)
      : GpuPlaneDetector(name), gl_(gl), config_(config) {}
  GlContext& gl_;
  Config config_;
  std::optional<Stage> stage_;

 private:
  bool made() const final { return stage_.has_value(); }
  GpuWords resultWords() const final { return stage_->resultWords(); }
};

// blockdetect: each plane's row 0 and column 0 sums.
class GpuBlockDetect : public GpuPlaneStage<BlockDetect, BlockDetectConfig> {
 public:
  GpuBlockDetect(GlContext& gl, const BlockDetectConfig& config)
      : GpuPlaneStage("blockdetect", gl, config) {}
  // The stage, made before any frame's time is taken, and where `format`'s planes lie in what
  // the import leaves (`packed_import`: the RGB lands in a packed buffer, not an image).
  Status configureFor(PixelFormat format, bool packed_import);
  // The same, for the plan's import.
  Status configureFor(const Frame& frame, const FramePlan& plan) override;
  // Testing aid: fills the stage's slices buffer (nothing before the first configureFor()).
  Status poison(uint32_t pattern) { return stage_ ? stage_->poison(pattern) : Status::success(); }

 private:
  // Each plane the config asks for: its row 0 and column 0 sums.
  Status countPlanes(const ImportedFrame& imported,
                     const std::vector<ImportedPlane>& planes) override;
  // The mean of the planes' figures into r.block.
  Status figureInto(FrameResult& r, std::span<const uint32_t> words) override;
};

// blurdetect: the block counts of its four passes.
class GpuBlurDetect : public GpuPlaneStage<BlurDetect, BlurDetectConfig> {
 public:
  GpuBlurDetect(GlContext& gl, const BlurDetectConfig& config)
      : GpuPlaneStage("blurdetect", gl, config) {}
  // The stage, made before any frame's time is taken, and where the format's planes lie.
  Status configureFor(const Frame& frame, const FramePlan& plan) override;

 private:
  // The four passes over the planes: the block counts.
  Status countPlanes(const ImportedFrame& imported,
                     const std::vector<ImportedPlane>& planes) override;
  // The figure from the block counts into r.blur.
  Status figureInto(FrameResult& r, std::span<const uint32_t> words) override;
};

}  // namespace esf
