// The frame difference stage (GPU and the CPU executor's kernel) against its plain reference:
// every sum, over runs of frames where the previous frame and the freeze reference differ.
#include <gtest/gtest.h>

#include "base/channels.hpp"
#include "core/cpu/cpu_health.hpp"
#include "core/image/gpu_image.hpp"
#include "core/stages/frame_difference.hpp"
#include "core/stages/frame_difference_reference.hpp"
#include "core/stats/health_regions.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

using test::Content;

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

TEST(FrameDifferenceReference, RegionsHandExample) {
  // 5x2 in a 2x1 grid: cell 0 is columns 0-2 (x * 2 / 5 == 0), cell 1 columns 3-4; a rectangle
  // at (4, 1) of 3x3 is clipped to the one pixel (4, 1). Changed: |Y - P| > 5.
  const uint8_t y[] = {10, 20, 30, 40, 50,  //
                       60, 70, 80, 90, 100};
  const uint8_t p[] = {10, 26, 30, 40, 50,  //
                       60, 70, 74, 90, 90};
  HealthRegionSpec regions;
  regions.columns = 2;
  regions.rows = 1;
  regions.rois = {{4, 1, 3, 3}};
  regions.change_level = 5;
  const FrameDifferenceSums s = frameDifferenceReference(y, p, p, 5, 2, true, regions);
  EXPECT_EQ(s.region_luma,
            (std::vector<uint64_t>{10 + 20 + 30 + 60 + 70 + 80, 40 + 50 + 90 + 100, 100}));
  // 20 vs 26 and 80 vs 74 differ by 6, 100 vs 90 by 10.
  EXPECT_EQ(s.region_changed, (std::vector<uint64_t>{2, 1, 1}));
}

// Four frames: two different, one repeated (frozen: the reference stays), one different; the
// GPU stage and the executor against the reference at every step.
void checkSequence(FrameDifference& stage, RowPool& pool, int w, int h, Content content,
                   bool from_rgb, bool full_range, const HealthRegionSpec& regions = {},
                   bool packed = false) {
  const RgbaImage frames[] = {test::makeImage(w, h, content, 1), test::makeImage(w, h, content, 2),
                              test::makeImage(w, h, content, 2), test::makeImage(w, h, content, 3)};
  std::vector<uint8_t> previous, reference;
  stage.reset();
  HealthConfig config;
  for (int i = 0; i < 4; ++i) {
    SCOPED_TRACE(testing::Message()
                 << w << "x" << h << " " << test::contentName(content) << " frame " << i
                 << (from_rgb ? " rgb" : " red") << (full_range ? " full" : " limited")
                 << (packed ? " packed" : ""));
    const std::vector<uint8_t> luma = test::lumaOf(frames[i], from_rgb);
    const uint8_t* p = i ? previous.data() : nullptr;
    const uint8_t* r = i ? reference.data() : nullptr;
    const FrameDifferenceSums want =
        frameDifferenceReference(luma.data(), p, r, w, h, full_range, regions);
    EXPECT_EQ(frameDifferenceCpu(luma.data(), p, r, w, h, full_range, regions, pool), want);
    ASSERT_TRUE(stage.poison(test::kPoison).ok());
    if (packed) {
      Result<PackedRgbaBuffer> buffer = PackedRgbaBuffer::fromImage(frames[i]);
      ASSERT_TRUE(buffer.ok()) << buffer.error().message;
      ASSERT_TRUE(stage.run(*buffer, from_rgb, full_range).ok());
    } else {
      Result<GpuImage> image = GpuImage::fromImage(frames[i]);
      ASSERT_TRUE(image.ok()) << image.error().message;
      ASSERT_TRUE(stage.run(*image, from_rgb, full_range).ok());
    }
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

// A frame imported packed (the pipeline's packed import): the same sums, with and without regions.
TEST(FrameDifference, APackedFrameMatchesReference) {
  GlContext& gl = test::glContext();
  RowPool pool(3);
  for (bool with_regions : {false, true}) {
    HealthRegionSpec regions;
    if (with_regions) {
      regions.columns = 3, regions.rows = 2;
      regions.rois = {{3, 2, 50, 40}};
      regions.change_level = 7;
    }
    Result<FrameDifference> stage =
        FrameDifference::create(gl, FrameDifferenceParams::defaultsFor(gl), regions);
    ASSERT_TRUE(stage.ok()) << stage.error().message;
    if (!stage->acceptsPacked()) {
      Result<PackedRgbaBuffer> buffer = PackedRgbaBuffer::create(4, 4);
      ASSERT_TRUE(buffer.ok());
      EXPECT_EQ(stage->run(*buffer, true, true).error().code, ErrorCode::kUnsupported);
      GTEST_SKIP() << "no sixth storage block (GLES 3.1's minimum limits)";
    }
    for (auto [w, h] : {std::pair{1, 1}, std::pair{257, 3}, std::pair{127, 129}})
      for (Content content : {Content::kRandom, Content::kGradient})
        for (bool from_rgb : {false, true})
          checkSequence(*stage, pool, w, h, content, from_rgb, !from_rgb, regions, true);
  }
}

// Regions: a grid whose cells are not multiples of anything, rectangles that overlap it and each
// other, one clipped by the frame's edge and one outside it.
HealthRegionSpec testRegions(int columns, int rows) {
  HealthRegionSpec regions;
  regions.columns = columns;
  regions.rows = rows;
  regions.rois = {{0, 0, 1, 1}, {3, 2, 50, 40}, {10, 1, 100000, 7}, {5000, 5000, 10, 10}};
  regions.change_level = 7;
  return regions;
}

TEST(FrameDifference, RegionsMatchReference) {
  GlContext& gl = test::glContext();
  RowPool pool(3);
  using Case = test::RegionCase;
  for (Case c : {Case{1, 1, 1, 1}, Case{257, 3, 4, 3}, Case{127, 129, 16, 16}, Case{33, 300, 3, 7},
                 Case{1920, 1080, 8, 6}}) {
    const HealthRegionSpec regions = testRegions(c.columns, c.rows);
    Result<FrameDifference> stage =
        FrameDifference::create(gl, FrameDifferenceParams::defaultsFor(gl), regions);
    ASSERT_TRUE(stage.ok()) << stage.error().message;
    for (Content content : {Content::kRandom, Content::kGradient})
      checkSequence(*stage, pool, c.w, c.h, content, true, false, regions);
  }
}

TEST(FrameDifference, MostRegionsFitTheMinimumLimits) {
  // 16 x 16 cells and 16 rectangles: the shared sums fit GLES 3.1's 16 KB.
  GlContext& gl = test::glContext();
  HealthRegionSpec regions = testRegions(16, 16);
  while (regions.rois.size() < kMaxHealthRois) regions.rois.push_back({1, 1, 2, 2});
  Result<FrameDifference> stage =
      FrameDifference::create(gl, FrameDifferenceParams::defaultsFor(gl), regions);
  ASSERT_TRUE(stage.ok()) << stage.error().message;
  RowPool pool(2);
  checkSequence(*stage, pool, 97, 55, Content::kRandom, true, true, regions);
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
