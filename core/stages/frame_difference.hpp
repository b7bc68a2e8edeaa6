#pragma once
// The frame difference: one frame's luma against the previous frame's and the freeze
// reference's, kept on the GPU, and its 256-value histogram, in one pass (the sums of
// core/stats/health_figures.hpp: FrameDifferenceSums, for ydif, scdet, freezedetect, siti's TI,
// blackdetect and entropy).
//
// Shape (glsl_es/frame_difference.comp): each invocation takes words_per_invocation words of
// 4 consecutive pixels, reads the luma from the image (its red channel, or the integer BT.709
// luma of its RGB), stores it packed into the current frame's buffer, and sums against the
// kept frames' bytes. A workgroup adds its invocations' sums in shared memory (every sum of a
// workgroup's 4 * words_per_invocation * workgroup_size pixels fits 32 bits) and counts its
// histogram there, then adds both into one record with global atomics (the sums in 64 bits), in
// a buffer the host never maps; the last workgroup to finish moves the record into the buffer
// read back and zeroes it for the next pass (where the GPU has a fifth storage block; GLES 3.1
// promises 4, and there the host zeroes it and copies it). (On NVIDIA the same atomics into a
// buffer mapped for the read-back took many times the pass: the driver kept it in host memory.
// Per-workgroup records merged over levels, and zeroing by upload and copying by command beside
// the dispatch, each cost more than the one record: bench/results/h100-health.md,
// bench/results/h200-health.md.)
//
// The three packed frames rotate: after read(), advance(frozen) makes the current frame the
// previous one, and the reference too unless the frame was frozen (freezedetect compares with
// the freeze's first frame).
#include <span>

#include "core/image/gpu_image.hpp"
#include "core/stages/stage_gl.hpp"
#include "core/stats/health_figures.hpp"
#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct FrameDifferenceParams {
  int workgroup_size = 256;  // a power of two
  int words_per_invocation = 4;
  // regions: the pass also sums health regions (FrameDifference::create's regions not empty).
  static FrameDifferenceParams defaultsFor(const GlContext& gl, bool regions = false);
  Status validate(const ComputeLimits& limits) const;
};

class FrameDifference {
 public:
  // With regions, each region's sums too (FrameDifferenceSums::region_*).
  static Result<FrameDifference> create(const GlContext& gl, const FrameDifferenceParams& params,
                                        const HealthRegionSpec& regions = {});
  // from_rgb: the luma is the BT.709 luma of the image's RGB; else its red channel. The frame's
  // writer must have issued its barrier (every stage does). run() is queue(), the barrier that
  // makes the sums visible (kStorageWrittenBarrier), then complete(): a caller that runs
  // another pass beside this one (the Sobel pass, from a packed frame) queues both, issues the
  // barrier once and completes both, so the GPU can overlap them.
  Status run(const GpuImage& image, bool from_rgb, bool full_range);
  // The same from a packed frame (acceptsPacked() only: a sixth storage block).
  Status run(const PackedRgbaBuffer& frame, bool from_rgb, bool full_range);
  Status queue(const PackedRgbaBuffer& frame, bool from_rgb, bool full_range);
  Status complete();
  bool acceptsPacked() const { return accepts_packed_; }
  // The last run's luma, packed 4 pixels a word in row order (a Sobel pass's input).
  GLuint currentLuma() const { return luma_[current_].get(); }
  Result<FrameDifferenceSums> read() const;
  // Where read() reads the last run's sums, and the sums from those words.
  GpuWords resultWords() const { return {result_.get(), 0, recordWords()}; }
  Result<FrameDifferenceSums> sumsOf(std::span<const uint32_t> words) const;
  void advance(bool frozen);
  // The next frame is a first frame (no previous, no reference).
  void reset();
  bool first() const { return previous_ < 0; }
  const FrameDifferenceParams& params() const { return params_; }
  Status poison(uint32_t pattern);  // testing aid: fills the result buffer

 private:
  FrameDifference(const GlContext& gl, const FrameDifferenceParams& params,
                  const HealthRegionSpec& regions);
  Status allocate(int width, int height);
  Result<GlProgram> build(bool packed_source) const;  // frame_difference.comp with these defines
  // `texture` or `packed` (one of them) of width x height.
  Status queueOn(GLuint texture, GLuint packed, int width, int height, bool from_rgb,
                 bool full_range);
  size_t recordWords() const;  // of result_; totals_ has one more, the shader's count
  const GlContext* gl_ = nullptr;
  FrameDifferenceParams params_;
  GlProgram program_;
  GlProgram packed_program_;  // PACKED_SOURCE, made at the first packed run
  bool accepts_packed_ = false;
  GlBuffer luma_[3];
  int current_ = 0, previous_ = -1, reference_ = -1;
  HealthRegionSpec regions_;
  // One record: 256 histogram words, then 4 sums of 2 words, then 4 words a region: totals_
  // where the workgroups add (zero between passes), result_ where the last workgroup moves it
  // for read().
  GlBuffer totals_, result_;
  bool publish_ = false;  // the shader moves the record into result_ (PUBLISH)
  bool queued_ = false;   // queue() without complete() yet
  int width_ = 0, height_ = 0;
  int64_t workgroups_ = 0;
};

}  // namespace esf
