#pragma once
// The image reduce: per channel min, max and sum over every pixel, sums exact past 2^32.
//
// Output buffer layout (resultBuffer(), std430 uint array, 4 words per channel of
// params.channels, in that order): { min, max, sum_lo, sum_hi }, sum = sum_hi * 2^32 + sum_lo.
// The mean and the other exposure statistics come from it.
//
// Shape (one pass, glsl_es/reduce.comp): `workgroups` persistent workgroups walk the image in a
// grid-stride loop over quads of 4 consecutive pixels (one 16-byte load from the packed
// buffer; 4 texelFetches without a division from the texture), pixels_per_invocation / 4
// quads per step; each invocation keeps its own min/max and sum (64-bit with uaddCarry where
// an invocation could pass 2^32). The workgroup combines them with subgroup operations
// (`subgroups`, only where GL_KHR_shader_subgroup_arithmetic exists) or a shared-memory tree,
// and one invocation per workgroup stores the workgroup's partial; the last workgroup to
// finish (an atomic counter it resets) combines the partials and writes the output whole, so
// nothing is cleared per run. 64-bit sums add with uaddCarry; subgroup adds split the low
// word into 16-bit halves, so the total is exact.
#include <cstdint>
#include <string>
#include <vector>

#include "base/channels.hpp"
#include "core/image/gpu_image.hpp"
#include "core/stages/histogram.hpp"  // ImageSource
#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct ReduceParams {
  std::string channels = "rgbl";
  LumaWeights luma = LumaWeights::kBt709;
  ImageSource source = ImageSource::kTexture;
  int workgroups = 16;
  int workgroup_size = 256;
  int pixels_per_invocation = 4;  // per grid-stride step: a multiple of 4 in [4, 256]
  bool subgroups = false;         // needs GL_KHR_shader_subgroup_arithmetic (create() checks)
  // How the workgroups' results meet: 0 = each stores a partial, the last workgroup combines
  // them all; N in [1, min(64, workgroup_size)] = atomics into N accumulators (workgroup % N),
  // which the last workgroup empties.
  int accumulators = 0;
  // Packed buffer only: each grid-stride step reads all its quads before reducing them (every
  // 16-byte load of the step in flight at once), where the whole step is inside the image.
  bool batch_loads = false;

  static ReduceParams defaultsFor(const GlContext& gl);
  // Whether this context has the subgroup arithmetic the `subgroups` form needs.
  static bool subgroupsAvailable();
  Status validate(const ComputeLimits& limits) const;
};

struct ChannelReduce {
  uint32_t min = 0, max = 0;
  uint64_t sum = 0;
  bool operator==(const ChannelReduce&) const = default;
};

class ImageReduce {
 public:
  static Result<ImageReduce> create(const GlContext& gl, const ReduceParams& params);
  Status run(const GpuImage& image);
  Status run(const PackedRgbaBuffer& image);

  Result<std::vector<ChannelReduce>> read() const;  // one per channel, params order
  GLuint resultBuffer() const { return result_.get(); }
  const ReduceParams& params() const { return params_; }
  Status poison(uint32_t pattern);  // testing aid: fills the result buffer

 private:
  ImageReduce() = default;
  Status runImpl(int width, int height, GLuint texture, GLuint buffer);
  // The program with CARRY = carry (-1: 1, the safe form built by create()).
  Result<GlProgram> compile(int carry) const;
  const GlContext* gl_ = nullptr;
  ReduceParams params_;
  GlProgram program_;
  int carry_ = 1;  // the CARRY of program_
  GlBuffer result_;
  GlBuffer partials_;  // the finish counter, then each workgroup's partial (reduce.comp)
};

}  // namespace esf
