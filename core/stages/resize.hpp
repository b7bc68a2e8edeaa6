#pragma once
// Area-average downscale to any out_w x out_h no larger than the input (RGBA, all 4 channels).
//
// Exact integer area weights. Let gx = gcd(W, w), a = W / gx, a' = w / gx (same for y with
// H, h: b, b'). Measured in units of 1/a' of a source pixel along x, source pixel x covers
// [x a', (x+1) a') and output pixel ox covers [ox a, (ox+1) a): its weight on source x is the
// overlap length wx (an integer), and the weights of one output sum to a. Likewise wy sums to
// b. Each output channel is
//   (sum over the footprint of wx * wy * v  +  a*b/2) / (a*b)      (integer division)
// the area mean rounded half up. For integer ratios a' = b' = 1, every weight is 1 and this is
// exactly (sum + n/2) / n over the n = a*b block. Sums must fit 32 bits: a * b <= 16843009
// (2^32 / 255), true for any source up to 4096 x 4096; larger footprints are refused.
#include "core/image/gpu_image.hpp"
#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct ResizeParams {
  int workgroup_x = 16;
  int workgroup_y = 16;
  static ResizeParams defaultsFor(const GlContext& gl);
  Status validate(const ComputeLimits& limits) const;
};

class Resize {
 public:
  static Result<Resize> create(const GlContext& gl, const ResizeParams& params);
  // Writes `out` (its size is the target size) from `in`.
  Status run(const GpuImage& in, GpuImage& out);
  const ResizeParams& params() const { return params_; }

 private:
  Resize() = default;
  const GlContext* gl_ = nullptr;
  ResizeParams params_;
  GlProgram program_;
};

// Checks the target size (1..W x 1..H) and the 32-bit weight bound.
Status checkResizeSize(int in_w, int in_h, int out_w, int out_h);

}  // namespace esf
