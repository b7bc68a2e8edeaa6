// GPU timer: a measurement comes back (timer query or glFinish wall time), errors pass through.
#include <gtest/gtest.h>

#include "core/image/gpu_image.hpp"
#include "core/stages/histogram.hpp"
#include "platform/gpu_timer.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

TEST(GpuTimer, TimesAStage) {
  GlContext& gl = test::glContext();
  GpuTimer timer(gl);
  EXPECT_EQ(timer.usesTimerQuery(), gl.hasTimerQuery() && !gl.isLlvmpipe());
  Result<Histogram> h = Histogram::create(gl, HistogramParams::defaultsFor(gl));
  ASSERT_TRUE(h.ok()) << h.error().message;
  Result<GpuImage> img = GpuImage::fromImage(test::makeImage(640, 480, test::Content::kRandom));
  ASSERT_TRUE(img.ok());
  Result<double> ms = timeGpuMs(timer, [&] { return h->run(img.value()); });
  ASSERT_TRUE(ms.ok()) << ms.error().message;
  EXPECT_GT(ms.value(), 0.0);
  EXPECT_LT(ms.value(), 60000.0);
}

TEST(GpuTimer, PassesTheWorkError) {
  GpuTimer timer(test::glContext());
  Result<double> ms =
      timeGpuMs(timer, [] { return Status(fail(ErrorCode::kGpu, "stage x failed")); });
  ASSERT_FALSE(ms.ok());
  EXPECT_EQ(ms.error().message, "stage x failed");
}

}  // namespace
}  // namespace esf
