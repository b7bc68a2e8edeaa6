#pragma once
// The image reduce: per channel min, max and sum over every pixel, sums exact past 2^32.
//
// Output buffer layout (resultBuffer(), std430 uint array, 4 words per channel of
// params.channels, in that order): { min, max, sum_lo, sum_hi }, sum = sum_hi * 2^32 + sum_lo.
// The mean and the other exposure statistics come from it.
//
// Shape: `workgroups` persistent workgroups walk the image in a grid-stride loop; each
// invocation keeps its own min/max and a 64-bit sum (uaddCarry), merges into shared memory
// with atomics, and one invocation per workgroup merges into the output. A 64-bit add is
// atomicAdd on the low word; its returned old value tells whether it carried, and the carry
// goes into the high word with a second atomicAdd, so the total is exact in any order.
#include <cstdint>
#include <string>
#include <vector>

#include "core/image/gpu_image.hpp"
#include "core/stages/channels.hpp"
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

  static ReduceParams defaultsFor(const GlContext& gl);
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
  const GlContext* gl_ = nullptr;
  ReduceParams params_;
  GlProgram program_;
  GlBuffer result_;
};

}  // namespace esf
