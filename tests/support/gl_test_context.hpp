#pragma once
// One GL context for a whole test binary (EGL init and shader compiles are slow on llvmpipe
// and slower under qemu-user). ESFRAME_TEST_EGL picks the platform (default: auto).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "platform/gl_context.hpp"

namespace esf::test {

// The shared context, created on first use and made current. Fails the test when there is none.
GlContext& glContext();

// A buffer filled with this pattern was never written: poisoned outputs must not survive.
constexpr uint32_t kPoison = 0xDEADBEEFu;

// Under ESFRAME_GL_LIMITS=gles31-min (platform/gl_spec_limits.hpp) a test's explicit stage
// parameters may ask for more than GLES 3.1 guarantees. `valid` is their validate() against the
// context's limits: where that fails, the stage must have refused them with one line naming the
// limit (kUnsupported, "GL_MAX_..."), and this returns true: the test skips that configuration.
// Under the driver's own limits (or for parameters within them) it returns false.
template <class Made>
bool refusedForSpecMinimums(const Status& valid, const Made& made) {
  if (valid.ok() || !glContext().specMinimumLimits()) return false;
  EXPECT_FALSE(made.ok()) << "parameters beyond the GLES 3.1 minimums were accepted";
  if (!made.ok()) {
    EXPECT_EQ(made.error().code, ErrorCode::kUnsupported) << made.error().message;
    EXPECT_NE(made.error().message.find("GL_MAX_"), std::string::npos) << made.error().message;
  }
  return true;
}

// Reads `count` 32-bit words back from an SSBO.
std::vector<uint32_t> readBuffer(GLuint buffer, size_t count);

}  // namespace esf::test
