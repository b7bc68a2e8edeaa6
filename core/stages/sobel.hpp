#pragma once
// The Sobel sums of one luma frame (core/stats/health_figures.hpp: SobelSums, for siti's SI and the
// Tenengrad focus measure): over the interior pixels of the range-stretched luma, the squared
// Sobel magnitude m, its fixed-point root q = round(65536 sqrt(m)) computed exactly in
// integers, and q^2.
//
// The luma: the frame difference's packed luma (FrameDifference::currentLuma(), after that pass),
// or a packed frame's own (its red channel, or the BT.709 luma of its RGB, as the frame
// difference reads it). From a packed frame the pass depends on no other, so it can run beside
// the frame difference (queue(), then one barrier for both: the GPU overlaps the two passes,
// bench/results/h200-health.md). On llvmpipe, which runs passes one after the other and reads
// images, reading the difference's bytes is the cheaper form (slightly cheaper than the Sobel
// pass converting the image's pixels again: bench/results/llvmpipe-2core-stages.md).
//
// Shape (glsl_es/sobel.comp): 64 x workgroup_y invocations cover 256 columns and
// 8 x workgroup_y rows, 4 pixels of each of 8 consecutive rows each, 6 pixels per row and every
// row loaded once (earlier shapes were slower: one pixel and 9 byte loads each over 16-column
// strips; 4 pixels of 2 rows each, its workgroups spending more on their reduction than on
// their pixels; bench/results/h100-health.md);
// each workgroup adds its sums in shared memory (64, 64 and 96 bits) and stores one partial;
// read() adds them.
#include <span>

#include "core/image/gpu_image.hpp"
#include "core/stages/stage_gl.hpp"
#include "core/stats/health_figures.hpp"
#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct SobelParams {
  int workgroup_y = 4;  // 64 x 4 invocations (64 x 2 where the GPU offers fewer than 256)
  static constexpr int kWorkgroupX = 64;  // the shader's WG_X: 4 pixels an invocation
  static constexpr int kColumnsPerWorkgroup = 4 * kWorkgroupX;
  static constexpr int kRowsPerInvocation = 8;
  int rowsPerWorkgroup() const { return kRowsPerInvocation * workgroup_y; }
  // regions: the pass also sums health regions (Sobel::create's regions not empty).
  static SobelParams defaultsFor(const GlContext& gl, bool regions = false);
  Status validate(const ComputeLimits& limits) const;
};

class Sobel {
 public:
  // With regions, each region's sum m too (SobelSums::region_squares).
  static Result<Sobel> create(const GlContext& gl, const SobelParams& params,
                              const HealthRegionSpec& regions = {});
  // `luma`: width x height bytes packed 4 a word in row order (FrameDifference::currentLuma(),
  // after its barrier).
  Status run(GLuint luma, int width, int height, bool full_range);
  // from_rgb: the luma is the BT.709 luma of the frame's RGB; else its red channel. The frame's
  // writer must have issued its barrier (every stage does). run() is queue(), the barrier that
  // makes the sums visible (kStorageWrittenBarrier), then complete(): a caller that runs
  // another pass beside this one queues both, issues the barrier once and completes both.
  Status run(const PackedRgbaBuffer& frame, bool from_rgb, bool full_range);
  Status queue(const PackedRgbaBuffer& frame, bool from_rgb, bool full_range);
  Status complete();
  Result<SobelSums> read() const;
  // Where read() reads the last run's partials (none below 3x3), and the sums from them.
  GpuWords resultWords() const;
  Result<SobelSums> sumsOf(std::span<const uint32_t> words) const;
  const SobelParams& params() const { return params_; }
  Status poison(uint32_t pattern);  // testing aid: fills the partials

 private:
  Sobel(const GlContext& gl, const SobelParams& params, const HealthRegionSpec& regions)
      : gl_(&gl), params_(params), regions_(regions) {}
  // `luma` (bytes) or `packed` (a frame), one of them.
  Status queueOn(GLuint luma, GLuint packed, int width, int height, bool from_rgb, bool full_range);
  Result<GlProgram> build(bool packed_source) const;
  const GlContext* gl_ = nullptr;
  SobelParams params_;
  GlProgram program_;
  GlProgram packed_program_;  // PACKED_SOURCE, made at the first packed frame
  HealthRegionSpec regions_;
  GlBuffer partials_;  // 7 words per workgroup, then 2 per region (copied from regions_buffer_)
  // The regions' sums, added with atomics: a buffer the host never maps (NVIDIA may keep a
  // buffer it maps in host memory, where every atomic crosses the bus).
  GlBuffer regions_buffer_;
  int64_t workgroups_ = 0;
  size_t partial_words_ = 0;
  int width_ = 0, height_ = 0;
  bool queued_ = false;  // queue() without complete() yet
};

}  // namespace esf
