#pragma once
// Checks a stage configuration against the driver's compute limits, with one-line errors
// naming the stage and the parameter. Every stage's Params::validate() goes through these.
#include <cstdint>
#include <string_view>

#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

// Raspberry Pi v3d (Mesa's v3d driver: 256 invocations, 32 KB of shared memory, 16-wide
// subgroups): what every default configuration must fit.
constexpr int kV3dMaxInvocations = 256;
constexpr int kV3dMaxSharedBytes = 32 * 1024;
constexpr int kV3dSubgroupWidth = 16;

// A workgroup of x*y invocations using `shared_bytes` of shared memory.
Status checkWorkgroup(const ComputeLimits& limits, std::string_view stage, int x, int y,
                      int64_t shared_bytes);
// A dispatch of x*y workgroups.
Status checkDispatch(const ComputeLimits& limits, std::string_view stage, int64_t x, int64_t y);
// llvmpipe ends every loop of a shader invocation once all its loops together have run 65535
// iterations (Mesa's LP_MAX_TGSI_LOOP_ITERATIONS, "shared between every loop in a shader"),
// with no error: a histogram silently loses pixels. Stages estimate the loop iterations of
// their busiest invocation and refuse configurations past this on llvmpipe.
constexpr int64_t kLlvmpipeLoopLimit = 65535;
// kLlvmpipeLoopLimit on llvmpipe, no limit elsewhere.
int64_t loopIterationLimit(const GlContext& gl);
// "<stage>: one invocation would run N loop iterations; llvmpipe stops every invocation after
// 65535 (LP_MAX_TGSI_LOOP_ITERATIONS) and would drop work silently: <hint>".
Status checkLoopIterations(const GlContext& gl, std::string_view stage, int64_t iterations,
                           std::string_view hint);
// `value` in [lo, hi], else "<stage>: <name> must be in [lo, hi], got value".
Status checkRange(std::string_view stage, std::string_view name, int64_t value, int64_t lo,
                  int64_t hi);

}  // namespace esf
