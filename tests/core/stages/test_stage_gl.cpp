// The stages' GL helpers: a read-back whose map fails is an error of its own, and leaves no GL
// error behind for the next check to misreport.
#include <gtest/gtest.h>

#include "core/stages/stage_gl.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

TEST(StageGl, AFailedMapIsReportedAndLeavesNoGlError) {
  test::glContext();
  Result<GlBuffer> buffer = makeStorageBuffer(4, "test buffer");
  ASSERT_TRUE(buffer.ok()) << buffer.error().message;
  // 8 words of a 4-word buffer: past its end, GL_INVALID_VALUE, nothing mapped.
  Result<std::vector<uint32_t>> got = readWords(buffer->get(), 8, "test read-back");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().code, ErrorCode::kGpu);
  EXPECT_EQ(got.error().message, "test read-back: glMapBufferRange: GL_INVALID_VALUE");
  EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
  // The buffer still reads back.
  ASSERT_TRUE(fillBuffer(buffer->get(), 4, 7u, "test fill").ok());
  got = readWords(buffer->get(), 4, "test read-back");
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(*got, std::vector<uint32_t>(4, 7u));
}

}  // namespace
}  // namespace esf
