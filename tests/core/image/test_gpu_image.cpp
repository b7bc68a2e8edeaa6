// GpuImage and PackedRgbaBuffer round trips, and the GPU texture -> packed copy.
#include <gtest/gtest.h>

#include "core/image/gpu_image.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

TEST(GpuImage, RoundTripsOddSizes) {
  test::glContext();
  for (test::Size s : {test::Size{1, 1}, test::Size{3, 7}, test::Size{257, 3}}) {
    RgbaImage img = test::makeImage(s.w, s.h, test::Content::kRandom, 21);
    Result<GpuImage> gpu = GpuImage::fromImage(img);
    ASSERT_TRUE(gpu.ok()) << gpu.error().message;
    Result<RgbaImage> back = gpu->download();
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back.value(), img);
    Result<PackedRgbaBuffer> packed = PackedRgbaBuffer::fromImage(img);
    ASSERT_TRUE(packed.ok());
    Result<RgbaImage> back2 = packed->download();
    ASSERT_TRUE(back2.ok());
    EXPECT_EQ(back2.value(), img);
  }
}

TEST(GpuImage, PackerCopiesTextureIntoBuffer) {
  GlContext& gl = test::glContext();
  Result<RgbaPacker> packer = RgbaPacker::create(gl);
  ASSERT_TRUE(packer.ok()) << packer.error().message;
  RgbaImage img = test::makeImage(131, 17, test::Content::kRandom, 22);
  Result<GpuImage> gpu = GpuImage::fromImage(img);
  Result<PackedRgbaBuffer> packed = PackedRgbaBuffer::create(131, 17);
  ASSERT_TRUE(gpu.ok() && packed.ok());
  RgbaImage poison(131, 17);
  std::fill(poison.pixels.begin(), poison.pixels.end(), 0xEF);
  ASSERT_TRUE(packed->upload(poison).ok());
  ASSERT_TRUE(packer->run(gpu.value(), packed.value()).ok());
  Result<RgbaImage> back = packed->download();
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), img);
  // Word layout: R in bits 0-7.
  std::vector<uint32_t> words = test::readBuffer(packed->buffer(), 1);
  const uint8_t* p = img.at(0, 0);
  EXPECT_EQ(words[0],
            uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24);
}

TEST(GpuImage, RefusesBadSizes) {
  test::glContext();
  Result<GpuImage> zero = GpuImage::create(0, 5);
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error().message.find("GPU image: size 0x5 is outside 1.."), std::string::npos);
  EXPECT_EQ(zero.error().code, ErrorCode::kInvalidArgument) << errorCodeName(zero.error().code);
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  Result<GpuImage> huge = GpuImage::create(max_size + 1, 1);
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.error().message.find("GPU image: size " + std::to_string(max_size + 1) + "x1"),
            std::string::npos)
      << huge.error().message;
  // Past the driver's GL_MAX_TEXTURE_SIZE: well-formed, unsupported here.
  EXPECT_EQ(huge.error().code, ErrorCode::kUnsupported) << errorCodeName(huge.error().code);
  Result<GpuImage> img = GpuImage::create(4, 4);
  ASSERT_TRUE(img.ok());
  Status s = img->upload(RgbaImage(5, 4));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("image is 5x4, expected 4x4"), std::string::npos);
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument) << errorCodeName(s.error().code);
}

}  // namespace
}  // namespace esf
