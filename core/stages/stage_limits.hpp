#pragma once
// Checks a stage configuration against the driver's compute limits, with one-line errors
// naming the stage and the parameter. Every stage's Params::validate() goes through these.
#include <cstdint>
#include <string_view>

#include "gl_context.hpp"
#include "result.hpp"

namespace esf {

// Raspberry Pi v3d: what every default configuration must fit (field-facts section 4).
constexpr int kV3dMaxInvocations = 256;
constexpr int kV3dMaxSharedBytes = 32 * 1024;
constexpr int kV3dSubgroupWidth = 16;

// A workgroup of x*y invocations using `shared_bytes` of shared memory.
Status checkWorkgroup(const ComputeLimits& limits, std::string_view stage, int x, int y,
                      int64_t shared_bytes);
// A dispatch of x*y workgroups.
Status checkDispatch(const ComputeLimits& limits, std::string_view stage, int64_t x, int64_t y);
// `value` in [lo, hi], else "<stage>: <name> must be in [lo, hi], got value".
Status checkRange(std::string_view stage, std::string_view name, int64_t value, int64_t lo,
                  int64_t hi);

}  // namespace esf
