// PipelineConfig::detect's blurdetect on the GPU backend (counted at the import, the figure made
// on the host from the GPU's block counts) equals the reference backend's host count bit for bit,
// frame by frame through one stream of YUV, GREY, RGB and Bayer frames and changes of size: the
// gradients the GPU keeps across frames are the reference's, and a Bayer frame (no figure) leaves
// them as they were. (The packed import's buffer as the source: test_blur_detect.cpp.)
#include <gtest/gtest.h>

#include <bit>
#include <memory>
#include <utility>
#include <vector>

#include "esframe/esframe.hpp"
#include "tests/support/random_frame.hpp"

namespace esf {
namespace {

PipelineConfig blurConfig() {
  PipelineConfig c;
  BlurDetectConfig blur;
  blur.planes = 15;  // RGBA32's alpha too
  blur.block_width = 8, blur.block_height = 6;
  c.detect.blur = blur;
  return c;
}

std::unique_ptr<Pipeline> pipelineOn(Backend backend) {
  PipelineConfig config = blurConfig();
  config.backend = backend;
  Result<std::unique_ptr<Pipeline>> made = Pipeline::create(config);
  EXPECT_TRUE(made.ok()) << made.error().message;
  return made ? std::move(made.value()) : nullptr;
}

TEST(BlurDetectBackends, AStreamOfFormatsAndSizesEqualsTheReference) {
  const std::unique_ptr<Pipeline> reference = pipelineOn(Backend::kReference);
  const std::unique_ptr<Pipeline> gpu = pipelineOn(Backend::kGles);
  ASSERT_TRUE(reference && gpu);
  const PixelFormat formats[] = {PixelFormat::kNV12,  PixelFormat::kSRGGB8, PixelFormat::kYUYV,
                                 PixelFormat::kRGB24, PixelFormat::kGREY,   PixelFormat::kYU12,
                                 PixelFormat::kUYVY,  PixelFormat::kRGBA32, PixelFormat::kNV21};
  const std::pair<int, int> sizes[] = {{48, 32}, {48, 32}, {30, 40}};
  uint32_t seed = 40;
  int figures = 0;
  for (auto [w, h] : sizes) {
    for (PixelFormat format : formats) {
      SCOPED_TRACE(testing::Message() << formatName(format) << " " << w << "x" << h);
      const test::TestFrame t = test::randomFrame(format, w, h, 1, test::kColorimetries[0], ++seed);
      Result<FrameResult> want = reference->process(t.frame);
      Result<FrameResult> got = gpu->process(t.frame);
      ASSERT_TRUE(want.ok()) << want.error().message;
      ASSERT_TRUE(got.ok()) << got.error().message;
      ASSERT_EQ(got->blur.has_value(), want->blur.has_value());
      if (format == PixelFormat::kSRGGB8) {
        EXPECT_FALSE(want->blur.has_value());  // ffmpeg's filters do not take Bayer frames
        continue;
      }
      ASSERT_TRUE(want->blur.has_value());
      EXPECT_EQ(std::bit_cast<uint32_t>(*got->blur), std::bit_cast<uint32_t>(*want->blur))
          << "GPU " << *got->blur << ", reference " << *want->blur;
      ++figures;
    }
  }
  EXPECT_EQ(figures, 24);
}

}  // namespace
}  // namespace esf
