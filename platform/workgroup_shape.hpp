#pragma once
// A 2D workgroup for one-invocation-per-pixel programs (import, pack, demosaic), from the
// driver's limits rather than a literal: 16x16 where 256 invocations fit (v3d, Mali G52/G610,
// Adreno, llvmpipe), 16x8 on Mali-T860 and at GLES 3.1's minimum of 128.
#include <algorithm>

#include "platform/gl_context.hpp"

namespace esf {

struct WorkgroupShape {
  int x = 16, y = 16;
  int invocations() const { return x * y; }
};

// The largest power-of-two shape of at most `most` invocations, x = y or x = 2y, within each side.
inline WorkgroupShape pixelWorkgroup(const ComputeLimits& limits, int most = 256) {
  const int cap = std::max(1, std::min(most, limits.work_group_invocations));
  WorkgroupShape s{1, 1};
  while (s.invocations() * 2 <= cap) {
    const bool widen = s.x <= s.y;
    if (widen ? s.x * 2 > limits.work_group_size[0] : s.y * 2 > limits.work_group_size[1]) break;
    (widen ? s.x : s.y) *= 2;
  }
  return s;
}

}  // namespace esf
