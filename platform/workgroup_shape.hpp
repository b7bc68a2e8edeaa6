#pragma once
// A 2D workgroup for one-invocation-per-pixel programs (import, pack, demosaic), from the
// driver's limits rather than a literal: 16x16 where 256 invocations fit (v3d, Mali G52/G610,
// Adreno, llvmpipe), 16x8 on Mali-T860 and at GLES 3.1's minimum of 128.
#include <algorithm>
#include <string_view>

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

// ComputeLimits::full_register_invocations of a driver whose GL_RENDERER is `renderer`: 64 on
// Midgard ("Mali-T860 (Panfrost)", Arm's own driver "Mali-T860"), else all it takes.
inline int32_t fullRegisterInvocations(std::string_view renderer, int32_t work_group_invocations) {
  const bool midgard = renderer.substr(0, 6) == "Mali-T";
  return midgard ? std::min(work_group_invocations, int32_t(64)) : work_group_invocations;
}

// The workgroup invocations of a program with many values live per invocation.
inline int32_t registerHeavyInvocations(const ComputeLimits& limits) {
  const int32_t full = limits.full_register_invocations;
  return full > 0 ? std::min(full, limits.work_group_invocations) : limits.work_group_invocations;
}

}  // namespace esf
