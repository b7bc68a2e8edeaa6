#include "tests/support/gl_test_context.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace esf::test {

GlContext& glContext() {
  static std::unique_ptr<GlContext> ctx = [] {
    setenv("MESA_SHADER_CACHE_DIR", ESFRAME_TEST_SHADER_CACHE, 0);
    GlContextOptions o;
    if (const char* p = std::getenv("ESFRAME_TEST_EGL")) {
      Result<EglPlatform> platform = parseEglPlatform(p);
      if (platform) o.egl.platform = platform.value();
    }
    if (const char* d = std::getenv("ESFRAME_TEST_DRM_DEVICE")) o.egl.drm_device = d;
    Result<std::unique_ptr<GlContext>> c = GlContext::create(o);
    if (!c) {
      std::fprintf(stderr, "no GL context: %s\n", c.error().message.c_str());
      std::abort();
    }
    // A run meant for one driver (toolchain/with-zink) stops when it got another.
    const char* want = std::getenv("ESFRAME_TEST_RENDERER");
    const std::string renderer = c.value()->renderer();
    if (want && renderer.find(want) == std::string::npos) {
      std::fprintf(stderr, "GL renderer '%s' is not the '%s' that ESFRAME_TEST_RENDERER asks for\n",
                   renderer.c_str(), want);
      std::abort();
    }
    return std::move(c.value());
  }();
  if (Status s = ctx->makeCurrent(); !s) ADD_FAILURE() << s.error().message;
  return *ctx;
}

std::vector<uint32_t> readBuffer(GLuint buffer, size_t count) {
  std::vector<uint32_t> out(count);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  const void* p =
      glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(count * 4), GL_MAP_READ_BIT);
  if (p)
    std::memcpy(out.data(), p, count * 4);
  else
    ADD_FAILURE() << "glMapBufferRange failed";
  glUnmapBuffer(GL_SHADER_STORAGE_BUFFER);
  return out;
}

}  // namespace esf::test
