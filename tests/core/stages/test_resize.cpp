// Area-average resize against the CPU reference; integer ratios against plain block means.
#include <gtest/gtest.h>

#include "core/image/gpu_image.hpp"
#include "core/stages/resize.hpp"
#include "core/stages/resize_reference.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

using test::Content;

RgbaImage runResize(Resize& r, const RgbaImage& in, int w, int h) {
  return test::runImageStage(in, w, h,
                             [&](const GpuImage& src, GpuImage& dst) { return r.run(src, dst); });
}

TEST(ResizeReference, IntegerRatioIsTheRoundedBlockMean) {
  RgbaImage in = test::makeImage(12, 9, Content::kRandom, 3);
  RgbaImage out = resizeReference(in, 4, 3);  // 3 x 3 blocks
  for (int oy = 0; oy < 3; ++oy)
    for (int ox = 0; ox < 4; ++ox)
      for (int c = 0; c < 4; ++c) {
        unsigned sum = 0;
        for (int y = 0; y < 3; ++y)
          for (int x = 0; x < 3; ++x) sum += in.at(ox * 3 + x, oy * 3 + y)[c];
        ASSERT_EQ(out.at(ox, oy)[c], (sum + 4) / 9);
      }
}

TEST(ResizeReference, NonIntegerRatioHandExample) {
  // 3 -> 2 along x: output 0 covers source 0 fully and half of 1; output 1 the other half of 1
  // and 2. Means: (2*a + b) / 3 in units, rounded half up.
  RgbaImage in(3, 1);
  for (int x = 0; x < 3; ++x)
    for (int c = 0; c < 4; ++c) in.at(x, 0)[c] = uint8_t(x == 0 ? 10 : x == 1 ? 20 : 31);
  RgbaImage out = resizeReference(in, 2, 1);
  EXPECT_EQ(out.at(0, 0)[0], (2 * 10 + 20 + 1) / 3);  // 13.67 -> 14
  EXPECT_EQ(out.at(1, 0)[0], (20 + 2 * 31 + 1) / 3);  // 27.33 -> 27
  // Flat stays flat for any ratio.
  RgbaImage flat = test::makeImage(127, 129, Content::kFlat128);
  EXPECT_EQ(resizeReference(flat, 50, 77), test::makeImage(50, 77, Content::kFlat128));
}

TEST(Resize, MatchesReference) {
  GlContext& gl = test::glContext();
  Result<Resize> r = Resize::create(gl, ResizeParams::defaultsFor(gl));
  ASSERT_TRUE(r.ok()) << r.error().message;
  struct Case {
    int w, h, ow, oh;
  };
  const Case cases[] = {{1, 1, 1, 1},         {3, 7, 1, 1},           {3, 7, 2, 5},
                        {127, 129, 127, 129}, {127, 129, 64, 43},     {127, 129, 1, 129},
                        {257, 1, 13, 1},      {1, 257, 1, 100},       {640, 480, 320, 240},
                        {640, 480, 213, 161}, {1920, 1080, 640, 360}, {1920, 1080, 1919, 1079}};
  for (const Case& c : cases)
    for (Content content : test::kAllContents) {
      RgbaImage in = test::makeImage(c.w, c.h, content, 5);
      ASSERT_EQ(runResize(r.value(), in, c.ow, c.oh), resizeReference(in, c.ow, c.oh))
          << test::describe(c.w, c.h, content) << " -> " << c.ow << "x" << c.oh;
      if (c.w * c.h > 300000) break;  // large frames: random only, keeps the suite fast
    }
}

TEST(Resize, DefaultsFitV3d) {
  ResizeParams p = ResizeParams::defaultsFor(test::glContext());
  EXPECT_LE(p.workgroup_x * p.workgroup_y, 256);
  EXPECT_EQ(p.workgroup_x * p.workgroup_y % 16, 0);
  EXPECT_TRUE(p.validate(test::v3dLimits()).ok());
}

TEST(Resize, RefusesUpscaleAndOverflowingFootprints) {
  Status up = checkResizeSize(10, 10, 11, 10);
  ASSERT_FALSE(up.ok());
  EXPECT_NE(up.error().message.find("downscale only"), std::string::npos);
  EXPECT_EQ(up.error().code, ErrorCode::kInvalidArgument) << errorCodeName(up.error().code);
  // 8191 x 8191 -> 2 x 2: a = b = 8191, 67 M units, past 2^32 / 255.
  Status big = checkResizeSize(8191, 8191, 2, 2);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("16843009"), std::string::npos);
  EXPECT_EQ(big.error().code, ErrorCode::kUnsupported) << errorCodeName(big.error().code);
  EXPECT_TRUE(checkResizeSize(4096, 4096, 1, 1).ok());
  GlContext& gl = test::glContext();
  if (gl.isLlvmpipe()) {
    // A 640 x 360 footprint per output pixel passes llvmpipe's 65535-iteration loop limit.
    Result<Resize> r = Resize::create(gl, ResizeParams::defaultsFor(gl));
    ASSERT_TRUE(r.ok()) << r.error().message;
    Result<GpuImage> in = GpuImage::create(1920, 1080), out = GpuImage::create(3, 3);
    ASSERT_TRUE(in.ok() && out.ok());
    Status s = r->run(in.value(), out.value());
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("LP_MAX_TGSI_LOOP_ITERATIONS"), std::string::npos);
    EXPECT_EQ(s.error().code, ErrorCode::kUnsupported) << errorCodeName(s.error().code);
  }
}

}  // namespace
}  // namespace esf
