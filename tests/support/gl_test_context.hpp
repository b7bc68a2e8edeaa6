#pragma once
// One GL context for a whole test binary (EGL init and shader compiles are slow on llvmpipe
// and slower under qemu-user). ESFRAME_TEST_EGL picks the platform (default: auto).
#include <cstdint>
#include <vector>

#include "platform/gl_context.hpp"

namespace esf::test {

// The shared context, created on first use and made current. Fails the test when there is none.
GlContext& glContext();

// A buffer filled with this pattern was never written: poisoned outputs must not survive.
constexpr uint32_t kPoison = 0xDEADBEEFu;

// Reads `count` 32-bit words back from an SSBO.
std::vector<uint32_t> readBuffer(GLuint buffer, size_t count);

}  // namespace esf::test
