#include <gtest/gtest.h>

#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

TEST(GlContext, SurfacelessGivesGles31WithCompute) {
  GlContextOptions o;
  o.egl.platform = EglPlatform::kSurfaceless;
  Result<std::unique_ptr<GlContext>> ctx = GlContext::create(o);
  ASSERT_TRUE(ctx.ok()) << ctx.error().message;
  EXPECT_EQ((*ctx)->display().platform(), EglPlatform::kSurfaceless);
  EXPECT_GE((*ctx)->glMajor() * 10 + (*ctx)->glMinor(), 31);
  const ComputeLimits& l = (*ctx)->limits();
  EXPECT_GE(l.work_group_invocations, 128);  // the GLES 3.1 minimum
  EXPECT_GE(l.shared_memory_size, 16384);
  EXPECT_GE(l.work_group_size[0], 128);
  EXPECT_FALSE((*ctx)->renderer().empty());
  EXPECT_FALSE((*ctx)->display().selectionLog().empty());
}

TEST(GlContext, AutoRecordsWhyItChose) {
  Result<std::unique_ptr<GlContext>> ctx = GlContext::create({});
  ASSERT_TRUE(ctx.ok()) << ctx.error().message;
  const auto& log = (*ctx)->display().selectionLog();
  ASSERT_FALSE(log.empty());
  // The last line names the chosen platform.
  EXPECT_EQ(log.back().rfind(toString((*ctx)->display().platform()), 0), 0u) << log.back();
}

TEST(GlContext, GbmOnMissingNodeFailsWithPath) {
  GlContextOptions o;
  o.egl.platform = EglPlatform::kGbm;
  o.egl.drm_device = "/nonexistent";
  Result<std::unique_ptr<GlContext>> ctx = GlContext::create(o);
  ASSERT_FALSE(ctx.ok());
  EXPECT_NE(ctx.error().message.find("/nonexistent"), std::string::npos) << ctx.error().message;
}

TEST(GlContext, GbmOnNonDrmFileFailsClearly) {
  GlContextOptions o;
  o.egl.platform = EglPlatform::kGbm;
  o.egl.drm_device = "/dev/null";
  Result<std::unique_ptr<GlContext>> ctx = GlContext::create(o);
  ASSERT_FALSE(ctx.ok());
  EXPECT_EQ(ctx.error().message, "'/dev/null' is not a DRM device");
}

TEST(EglPlatform, ParsesNamesAndRejectsOthers) {
  EXPECT_EQ(parseEglPlatform("gbm").value(), EglPlatform::kGbm);
  EXPECT_EQ(parseEglPlatform("surfaceless").value(), EglPlatform::kSurfaceless);
  EXPECT_FALSE(parseEglPlatform("x11").ok());
}

}  // namespace
}  // namespace esf
