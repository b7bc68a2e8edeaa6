#pragma once
// ffmpeg's blurdetect on the GPU (glsl_es/blurdetect.comp), equal bit for bit to
// core/stats/blurdetect.hpp's BlurDetector (the reference, which the host runs for the other
// backends): the frame's ffmpeg planes read from the textures the import made (zero-copy frames
// too), each plane's per-pixel steps in four passes, and per block the counts the host turns
// into ffmpeg's double sum of widths; SharpestBlocks then makes the plane's figure on the host.
//
// State, as the reference's: the gradients buffer is sized for plane 0 and laid out at each
// plane's own width; Sobel writes only a plane's interior, so non-maximum suppression at the
// interior's edge reads the gradients an earlier plane or frame left. It is zeroed only when
// plane 0's size changes.
#include <GLES3/gl31.h>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "base/pixel_format.hpp"
#include "core/import/frame_import.hpp"
#include "core/stages/imported_planes.hpp"
#include "core/stages/stage_gl.hpp"
#include "core/stats/blurdetect.hpp"
#include "esframe/base/result.hpp"
#include "esframe/detectors.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct BlurDetectParams {
  int workgroup_x = 16, workgroup_y = 16;  // invocations, one a sample
  // pixelWorkgroup's shape of 256 invocations (v3d's), or the driver's register-heavy maximum
  // (Midgard's 64).
  static BlurDetectParams defaultsFor(const GlContext& gl);
  Status validate(const ComputeLimits& limits) const;
};

// blurdetect reads the frame's ffmpeg planes where the import left them.
using BlurDetectPlane = ImportedPlane;

class BlurDetect {
 public:
  static Result<BlurDetect> create(const GlContext& gl, const BlurDetectParams& params,
                                   const BlurDetectConfig& config);
  // Counts `planes` (ffmpeg's planes of one frame, plane 0 first); the planes in the config's
  // mask are read. Refuses (kUnsupported, naming blurdetect's block size) a block layout past the
  // driver's storage block size.
  Status run(std::span<const BlurDetectPlane> planes);
  // For a frame's one read-back: the last run's block counts, and the figure from those words
  // (the words of the last run's layout, and no other length).
  GpuWords resultWords() const { return {blocks_.get(), 0, layout_words_}; }
  Result<float> figureOf(std::span<const uint32_t> words) const;
  Result<float> read() const;       // the same figure, its words read back by copy
  Status poison(uint32_t pattern);  // testing aid: fills the block counts
  const BlurDetectParams& params() const { return params_; }

 private:
  // A counted plane's blocks in the last run.
  struct PlaneBlocks {
    bool counted = false;  // false: too small for the Gaussian, a figure of 0
    size_t first = 0;      // word
    BlurBlocks blocks;
  };
  BlurDetect(const GlContext& gl, const BlurDetectParams& params, const BlurDetectConfig& config)
      : gl_(&gl), params_(params), config_(config) {}
  Status ensureBuffers(int width0, int height0, size_t block_words);
  Status runPlane(const BlurDetectPlane& plane, const PlaneBlocks& at);

  const GlContext* gl_ = nullptr;
  BlurDetectParams params_;
  BlurDetectConfig config_;
  GlProgram programs_[4];      // the passes
  GlProgram packed_gaussian_;  // pass 0 reading a packed RGBA buffer
  GlBuffer smoothed_, gradients_, edges_, blocks_;
  int width0_ = -1, height0_ = -1;   // plane 0's size the buffers are for
  size_t block_capacity_ = 0;        // words
  std::vector<PlaneBlocks> planes_;  // of the last run, the planes in the mask
  size_t layout_words_ = 0;
  bool ran_ = false;
  mutable SharpestBlocks sharpest_;
};

}  // namespace esf
