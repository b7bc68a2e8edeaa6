// GlFence on llvmpipe (real fences), and its watchdog on a fence that never signals (a fake
// poll: llvmpipe finishes every dispatch before glDispatchCompute returns, so it cannot hang).
#include <gtest/gtest.h>

#include <thread>

#include "glsl_es/embedded_file.hpp"
#include "platform/egl_procs.hpp"
#include "platform/gl_fence.hpp"
#include "platform/gl_objects.hpp"
#include "platform/shader_library.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
extern const EmbeddedFile esf_test_shaders[];
extern const std::size_t esf_test_shaders_count;

namespace {

using std::chrono::milliseconds;

TEST(GlFence, WaitAfterDispatchSeesTheWrittenBuffer) {
  test::glContext();
  Result<GlProgram> program =
      ShaderLibrary({esf_test_shaders, esf_test_shaders_count})
          .compute("write_pattern.comp", ShaderDefines().set("MULTIPLIER", 5).set("OFFSET", 1));
  ASSERT_TRUE(program.ok()) << program.error().message;
  constexpr GLuint kCount = 257;
  std::vector<uint32_t> poison(kCount, test::kPoison);
  GlBuffer buffer = makeBuffer();
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer.get());
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(kCount * 4), poison.data(), GL_DYNAMIC_COPY);
  glUseProgram(program->get());
  glUniform1ui(glGetUniformLocation(program->get(), "u_count"), kCount);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffer.get());
  glDispatchCompute((kCount + 63) / 64, 1, 1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);

  GlFence fence = GlFence::insert("the test dispatch");
  Status done = fence.wait(kGpuWatchdog);
  ASSERT_TRUE(done.ok()) << done.error().message;
  EXPECT_TRUE(fence.signaled());
  ASSERT_TRUE(checkGl("fence wait").ok());
  std::vector<uint32_t> got = test::readBuffer(buffer.get(), kCount);
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], i * 5 + 1) << "word " << i;
}

TEST(GlFence, MovedFenceKeepsOneOwnerAndEmptyFenceIsDone) {
  test::glContext();
  GlFence empty;
  EXPECT_TRUE(empty.signaled());
  EXPECT_TRUE(empty.wait(milliseconds(0)).ok());

  GlFence first = GlFence::insert("nothing in particular");
  GlFence second = std::move(first);
  EXPECT_TRUE(second.wait(kGpuWatchdog).ok());
  EXPECT_TRUE(second.signaled());
  first = std::move(second);  // the moved-from owner takes one back
  EXPECT_TRUE(first.signaled());
  first.reset();
  EXPECT_TRUE(checkGl("fence delete").ok());  // one glDeleteSync per fence, no double delete
}

TEST(GlFence, HealthyContextReportsNoReset) {
  test::glContext();
  EXPECT_TRUE(checkGpuReset("nothing").ok());
  if (test::glContext().hasGlExtension("GL_EXT_robustness") ||
      test::glContext().hasGlExtension("GL_KHR_robustness")) {
    EXPECT_NE(eglClientProcs().getGraphicsResetStatus, nullptr);
  }
}

TEST(GpuWatchdog, FenceThatNeverSignalsBecomesAHangError) {
  std::vector<milliseconds> slices;
  Status s = waitWithWatchdog(
      [&](milliseconds slice) {
        slices.push_back(slice);
        std::this_thread::sleep_for(slice);
        return FencePoll::kPending;
      },
      milliseconds(250), "the histogram read-back");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kGpuHang) << errorCodeName(s.error().code);
  EXPECT_EQ(s.error().message,
            "GPU did not finish the histogram read-back within 250 ms (a GPU hang)");
  // Waited in slices (so a reset is noticed while waiting), none longer than the watchdog.
  ASSERT_GE(slices.size(), 2u);
  for (milliseconds slice : slices) EXPECT_LE(slice, milliseconds(250));
}

TEST(GpuWatchdog, LostContextEndsTheWaitAtOnce) {
  int polls = 0;
  Status s = waitWithWatchdog(
      [&](milliseconds) {
        ++polls;
        return polls < 2 ? FencePoll::kPending : FencePoll::kLost;
      },
      milliseconds(60'000), "frame 7");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kGpuLost);
  EXPECT_EQ(s.error().message, "GPU context lost while waiting for frame 7");
  EXPECT_EQ(polls, 2);
}

TEST(GpuWatchdog, SignalledFenceSucceedsWithoutWaitingOut) {
  int polls = 0;
  Status s = waitWithWatchdog(
      [&](milliseconds) { return ++polls < 3 ? FencePoll::kPending : FencePoll::kSignaled; },
      milliseconds(60'000), "x");
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(polls, 3);
}

}  // namespace
}  // namespace esf
