#include <drm_fourcc.h>
#include <gtest/gtest.h>

#include "platform/egl_image.hpp"
#include "platform/workgroup_shape.hpp"
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
  // llvmpipe splits no register file between workgroup sizes.
  EXPECT_EQ(l.full_register_invocations, l.work_group_invocations);
}

// Midgard runs a workgroup of more than 64 invocations with half its work registers; other GPUs
// keep theirs (the renderers as Mesa and Arm's drivers print them).
TEST(ComputeLimits, FullRegisterInvocationsHalveOnlyOnMidgard) {
  EXPECT_EQ(fullRegisterInvocations("Mali-T860 (Panfrost)", 128), 64);
  EXPECT_EQ(fullRegisterInvocations("Mali-T760", 256), 64);
  EXPECT_EQ(fullRegisterInvocations("Mali-T860 (Panfrost)", 32), 32);
  EXPECT_EQ(fullRegisterInvocations("Mali-G52 r1 (Panfrost)", 256), 256);
  EXPECT_EQ(fullRegisterInvocations("V3D 4.2.14.0", 256), 256);
  EXPECT_EQ(fullRegisterInvocations("llvmpipe (LLVM 15.0.6, 256 bits)", 1024), 1024);
  ComputeLimits l;
  l.work_group_invocations = 128;
  EXPECT_EQ(registerHeavyInvocations(l), 128);  // unset: all the workgroup takes
  l.full_register_invocations = 64;
  EXPECT_EQ(registerHeavyInvocations(l), 64);
}

TEST(GlContext, AutoRecordsWhyItChose) {
  Result<std::unique_ptr<GlContext>> ctx = GlContext::create({});
  ASSERT_TRUE(ctx.ok()) << ctx.error().message;
  const auto& log = (*ctx)->display().selectionLog();
  ASSERT_FALSE(log.empty());
  // The last line names the chosen platform.
  EXPECT_EQ(log.back().rfind(toString((*ctx)->display().platform()), 0), 0u) << log.back();
}

// The error of a GBM context on `device`, which must fail.
std::string gbmContextError(const std::string& device) {
  GlContextOptions o;
  o.egl.platform = EglPlatform::kGbm;
  o.egl.drm_device = device;
  Result<std::unique_ptr<GlContext>> ctx = GlContext::create(o);
  EXPECT_FALSE(ctx.ok()) << device;
  return ctx.ok() ? std::string() : ctx.error().message;
}

TEST(GlContext, GbmOnMissingNodeFailsWithPath) {
  const std::string message = gbmContextError("/nonexistent");
  EXPECT_NE(message.find("/nonexistent"), std::string::npos) << message;
}

TEST(GlContext, GbmOnNonDrmFileFailsClearly) {
  EXPECT_EQ(gbmContextError("/dev/null"), "'/dev/null' is not a DRM device");
}

TEST(EglPlatform, ParsesNamesAndRejectsOthers) {
  EXPECT_EQ(parseEglPlatform("gbm").value(), EglPlatform::kGbm);
  EXPECT_EQ(parseEglPlatform("surfaceless").value(), EglPlatform::kSurfaceless);
  EXPECT_FALSE(parseEglPlatform("x11").ok());
}

}  // namespace
}  // namespace esf

namespace esf {
namespace {

// The proc table follows what the display reports (eglQueryString, an independent look at it):
// image procs exactly when EGL_KHR_image_base is listed, the dmabuf flags likewise.
TEST(EglProcs, FollowTheDisplayExtensions) {
  const EglDisplay& d = test::glContext().display();
  const EglProcs& p = d.procs();
  const std::string ext = " " + d.extensions() + " ";
  auto listed = [&](const char* name) {
    return ext.find(std::string(" ") + name + " ") != ext.npos;
  };
  EXPECT_EQ(p.createImage != nullptr, listed("EGL_KHR_image_base"));
  EXPECT_EQ(p.destroyImage != nullptr, listed("EGL_KHR_image_base"));
  EXPECT_EQ(p.dmabuf_import, listed("EGL_EXT_image_dma_buf_import"));
  EXPECT_EQ(p.dmabuf_import_modifiers, listed("EGL_EXT_image_dma_buf_import_modifiers"));
  EXPECT_EQ(p.imageTargetTexture2D != nullptr,
            eglGetProcAddress("glEGLImageTargetTexture2DOES") != nullptr);
}

TEST(EglImage, BadDmabufFailsWithoutAnImage) {
  const EglDisplay& d = test::glContext().display();
  if (!d.procs().createImage || !d.procs().dmabuf_import)
    GTEST_SKIP() << "this EGL display has no dmabuf import";
  DmabufPlane plane;
  plane.fd = BorrowedFd(-1);
  plane.drm_fourcc = DRM_FORMAT_ARGB8888;
  plane.width = 4;
  plane.height = 4;
  plane.pitch = 16;
  Result<EglImage> image = EglImage::importDmabuf(d, plane, "test plane");
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.error().code, ErrorCode::kGpu);
  EXPECT_EQ(image.error().message.rfind("cannot import the test plane into EGL (", 0), 0u)
      << image.error().message;
}

}  // namespace
}  // namespace esf
