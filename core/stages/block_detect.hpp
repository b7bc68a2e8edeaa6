#pragma once
// ffmpeg 5.1's blockdetect on the GPU (glsl_es/blockdetect.comp): each plane's gradients and
// their sums into row 0 and column 0 of a persistent buffer, equal bit for bit to the CPU
// reference's (core/stats/blockdetect.hpp, BlockDetector): the buffer is plane 0's size in
// floats, kept across planes and frames and zeroed only when plane 0's size changes, and each
// plane writes the same indices with the same floats (correctly rounded quotients, sums in
// ffmpeg's order) as the reference, so every later plane and frame starts from the same words.
// After each plane's passes its row 0 and column 0 are copied into a slice of a second
// buffer, which the frame's read-back copies; the host takes each plane's figure from its slice
// with the reference's own period loops (blockinessOfSums).
//
// Shape: per direction, a pass of the gradients (an invocation a run of them along a row or a
// column, its window of eight samples slid one sample a gradient), then a pass of the sums with
// one invocation per column (row), each summing sequentially: a sum's order is ffmpeg's, so it
// cannot be split.
#include <GLES3/gl31.h>

#include <cstdint>
#include <span>
#include <vector>

#include "core/stages/stage_gl.hpp"
#include "esframe/base/result.hpp"
#include "esframe/detectors.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct BlockDetectParams {
  int invocations = 64;  // of a workgroup
  int run_length = 16;   // gradients an invocation computes in a row (a column), sliding
  // 64, or the driver's maximum (and v3d's 256) where smaller.
  static BlockDetectParams defaultsFor(const GlContext& gl);
  Status validate(const ComputeLimits& limits) const;
};

// One of ffmpeg's planes as the GPU reads it: sample (x, y) is byte `channel` of texel
// (x * texel_step + texel_offset, y) of `texture`, or, where `packed` is set, of word
// y * width + x of that packed RGBA buffer (PackedRgbaBuffer's layout).
struct BlockDetectPlane {
  GLuint texture = 0;
  GLuint packed = 0;
  int texel_step = 1, texel_offset = 0;
  int channel = 0;
  int width = 0, height = 0;  // samples
};

class BlockDetect {
 public:
  static Result<BlockDetect> create(const GlContext& gl, const BlockDetectParams& params);
  // The form that reads packed buffers, where not built yet (runPlane builds it at its first
  // packed plane otherwise).
  Status preparePacked();
  // A frame whose plane 0 is width x height: the gradients of the frames before are kept, or
  // zeroed where plane 0's size differs from the last frame's (as ffmpeg's filter does). No
  // plane run yet.
  Status beginFrame(int width, int height);
  // The next plane of the frame (no larger than plane 0): its passes, then its slice.
  Status runPlane(const BlockDetectPlane& plane);
  // For a frame's one read-back: the slices of the frame's planes.
  GpuWords resultWords() const { return {sums_.get(), 0, slice_words_}; }
  // Each run plane's figure (ffmpeg's ret) from those words, in the order they ran.
  Result<std::vector<float>> planeFiguresOf(std::span<const uint32_t> words,
                                            const BlockDetectConfig& config) const;
  // The same from the buffer itself (a read-back of its own).
  Result<std::vector<float>> readPlaneFigures(const BlockDetectConfig& config) const;
  const BlockDetectParams& params() const { return params_; }
  Status poison(uint32_t pattern);  // testing aid: fills the slices' buffer

 private:
  BlockDetect(const GlContext& gl, const BlockDetectParams& params) : gl_(&gl), params_(params) {}
  Status ensureSums(size_t words);
  const GlContext* gl_ = nullptr;
  BlockDetectParams params_;
  GlProgram texture_program_, packed_program_;  // the packed form at its first use
  GlBuffer gradients_, sums_;
  int width_ = -1, height_ = -1;  // plane 0's, of the last frame
  size_t sums_capacity_ = 0;      // words
  struct Slice {
    int width = 0, height = 0;
  };
  std::vector<Slice> slices_;  // the frame's planes, in order
  size_t slice_words_ = 0;
  bool began_ = false;
};

}  // namespace esf
