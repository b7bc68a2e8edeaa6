// The frame difference stage (GPU and the CPU executor's kernel) against its plain reference:
// every sum, over runs of frames where the previous frame and the freeze reference differ.
#include <gtest/gtest.h>

#include "core/cpu/cpu_health.hpp"
#include "core/image/gpu_image.hpp"
#include "core/stages/channels.hpp"
#include "core/stages/frame_difference.hpp"
#include "core/stages/frame_difference_reference.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

using test::Content;

std::vector<uint8_t> lumaOf(const RgbaImage& image, bool from_rgb) {
  std::vector<uint8_t> y(size_t(image.width) * size_t(image.height));
  for (size_t i = 0; i < y.size(); ++i) {
    const uint8_t* p = &image.pixels[i * 4];
    y[i] = uint8_t(from_rgb ? lumaBt709(p[0], p[1], p[2]) : p[0]);
  }
  return y;
}

TEST(FrameDifferenceReference, HandExample) {
  // 2x1: Y = {20, 240}, previous {10, 235}, reference {20, 0}; limited range stretches 20 to
  // 255 * 4 / 219 = 4, 10 to 0, 240 and 235 to 255.
  const uint8_t y[] = {20, 240}, p[] = {10, 235}, r[] = {20, 0};
  FrameDifferenceSums s = frameDifferenceReference(y, p, r, 2, 1, false);
  EXPECT_EQ(s.sad_previous, 10u + 5u);
  EXPECT_EQ(s.sad_reference, 0u + 240u);
  EXPECT_EQ(s.motion_sum, 4);
  EXPECT_EQ(s.motion_squares, 16u);
  EXPECT_EQ(s.histogram[20], 1u);
  EXPECT_EQ(s.histogram[240], 1u);
  // A first frame compares with itself.
  EXPECT_EQ(frameDifferenceReference(y, nullptr, nullptr, 2, 1, true).sad_previous, 0u);
}

// Four frames: two different, one repeated (frozen: the reference stays), one different; the
// GPU stage and the executor against the reference at every step.
void checkSequence(FrameDifference& stage, RowPool& pool, int w, int h, Content content,
                   bool from_rgb, bool full_range) {
  const RgbaImage frames[] = {test::makeImage(w, h, content, 1), test::makeImage(w, h, content, 2),
                              test::makeImage(w, h, content, 2), test::makeImage(w, h, content, 3)};
  std::vector<uint8_t> previous, reference;
  stage.reset();
  HealthConfig config;
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(testing::Message()
                 << w << "x" << h << " " << test::contentName(content) << " frame " << i
                 << (from_rgb ? " rgb" : " red") << (full_range ? " full" : " limited"));
    const std::vector<uint8_t> luma = lumaOf(frames[i], from_rgb);
    const uint8_t* p = i ? previous.data() : nullptr;
    const uint8_t* r = i ? reference.data() : nullptr;
    const FrameDifferenceSums want = frameDifferenceReference(luma.data(), p, r, w, h, full_range);
    EXPECT_EQ(frameDifferenceCpu(luma.data(), p, r, w, h, full_range, pool), want);
    Result<GpuImage> image = GpuImage::fromImage(frames[i]);
    ASSERT_TRUE(image.ok()) << image.error().message;
    ASSERT_TRUE(stage.poison(test::kPoison).ok());
    ASSERT_TRUE(stage.run(*image, from_rgb, full_range).ok());
    EXPECT_EQ(stage.first(), i == 0);
    Result<FrameDifferenceSums> got = stage.read();
    ASSERT_TRUE(got.ok()) << got.error().message;
    EXPECT_EQ(got.value(), want);
    HealthSums sums;
    sums.difference = want;
    sums.pixels = uint64_t(w) * uint64_t(h);
    sums.first = i == 0;
    const bool frozen = healthFrozen(sums, config);
    // A repeated picture is frozen (flat and gradient frames repeat from the first on); random
    // frames of other seeds are far from it.
    EXPECT_EQ(frozen, i > 0 && luma == reference);
    stage.advance(frozen);
    if (!frozen) reference = luma;
    previous = luma;
  }
}

TEST(FrameDifference, MatchesReferenceOverRunsOfFrames) {
  GlContext& gl = test::glContext();
  Result<FrameDifference> stage =
      FrameDifference::create(gl, FrameDifferenceParams::defaultsFor(gl));
  ASSERT_TRUE(stage.ok()) << stage.error().message;
  RowPool pool(3);
  struct Size {
    int w, h;
  };
  for (Size s : {Size{1, 1}, Size{3, 7}, Size{257, 3}, Size{127, 129}})
    for (Content content : test::kAllContents)
      for (bool from_rgb : {false, true})
        for (bool full_range : {false, true})
          checkSequence(*stage, pool, s.w, s.h, content, from_rgb, full_range);
  checkSequence(*stage, pool, 1920, 1080, Content::kRandom, true, false);
}

TEST(FrameDifference, ParametersOutsideTheirRangeAreRefused) {
  GlContext& gl = test::glContext();
  FrameDifferenceParams p = FrameDifferenceParams::defaultsFor(gl);
  p.workgroup_size = 96;
  Result<FrameDifference> odd = FrameDifference::create(gl, p);
  ASSERT_FALSE(odd.ok());
  EXPECT_NE(odd.error().message.find("frame difference: workgroup_size"), std::string::npos);
  p = FrameDifferenceParams::defaultsFor(gl);
  p.words_per_invocation = 1000;  // a workgroup's squares would pass 32 bits
  EXPECT_FALSE(FrameDifference::create(gl, p).ok());
}

}  // namespace
}  // namespace esf
