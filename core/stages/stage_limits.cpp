#include "core/stages/stage_limits.hpp"

#include <cstdint>
#include <string>

namespace esf {

Status checkWorkgroup(const ComputeLimits& limits, std::string_view stage, int x, int y,
                      int64_t shared_bytes) {
  if (x < 1 || y < 1)
    return fail(ErrorCode::kInvalidArgument, stage, ": workgroup size must be at least 1x1");
  if (x > limits.work_group_size[0] || y > limits.work_group_size[1])
    return fail(ErrorCode::kUnsupported, stage, ": workgroup size ", std::to_string(x), "x",
                std::to_string(y), " exceeds the driver's GL_MAX_COMPUTE_WORK_GROUP_SIZE ",
                std::to_string(limits.work_group_size[0]), "x",
                std::to_string(limits.work_group_size[1]));
  if (int64_t(x) * y > limits.work_group_invocations)
    return fail(ErrorCode::kUnsupported, stage, ": workgroup of ", std::to_string(int64_t(x) * y),
                " invocations exceeds the driver's GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS ",
                std::to_string(limits.work_group_invocations));
  if (shared_bytes > limits.shared_memory_size)
    return fail(ErrorCode::kUnsupported, stage, ": ", std::to_string(shared_bytes),
                " bytes of shared memory exceed the driver's GL_MAX_COMPUTE_SHARED_MEMORY_SIZE ",
                std::to_string(limits.shared_memory_size));
  return {};
}

Status checkDispatch(const ComputeLimits& limits, std::string_view stage, int64_t x, int64_t y) {
  if (x > limits.work_group_count[0] || y > limits.work_group_count[1])
    return fail(ErrorCode::kUnsupported, stage, ": dispatch of ", std::to_string(x), "x",
                std::to_string(y),
                " workgroups exceeds the driver's GL_MAX_COMPUTE_WORK_GROUP_COUNT ",
                std::to_string(limits.work_group_count[0]), "x",
                std::to_string(limits.work_group_count[1]));
  return {};
}

int64_t loopIterationLimit(const GlContext& gl) {
  return gl.isLlvmpipe() ? kLlvmpipeLoopLimit : INT64_MAX;
}

Status checkLoopIterations(const GlContext& gl, std::string_view stage, int64_t iterations,
                           std::string_view hint) {
  if (iterations <= loopIterationLimit(gl)) return {};
  return fail(ErrorCode::kUnsupported, stage, ": one invocation would run ",
              std::to_string(iterations),
              " loop iterations; llvmpipe stops every invocation after ",
              std::to_string(kLlvmpipeLoopLimit),
              " (LP_MAX_TGSI_LOOP_ITERATIONS) and would drop work silently: ", hint);
}

Status checkRange(std::string_view stage, std::string_view name, int64_t value, int64_t lo,
                  int64_t hi) {
  if (value < lo || value > hi)
    return fail(ErrorCode::kInvalidArgument, stage, ": ", name, " must be in [", std::to_string(lo),
                ", ", std::to_string(hi), "], got ", std::to_string(value));
  return {};
}

}  // namespace esf
