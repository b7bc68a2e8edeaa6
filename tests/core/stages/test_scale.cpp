// Histogram display scale: the exact rational, rounded once, on GPU and CPU alike.
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "core/image/gpu_image.hpp"
#include "core/stages/histogram.hpp"
#include "core/stages/histogram_reference.hpp"
#include "core/stages/scale.hpp"
#include "core/stages/scale_reference.hpp"
#include "core/stages/stage_gl.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

TEST(ScaleReference, ExactQuotientIsTheCorrectlyRoundedFloat) {
  // Below 2^24 both operands are exact floats and IEEE division rounds correctly: an
  // independent oracle.
  std::mt19937 rng(2);
  for (int i = 0; i < 200000; ++i) {
    uint32_t num = 1 + rng() % 256, den = 1 + rng() % ((1u << 24) - 1);
    ASSERT_EQ(std::bit_cast<uint32_t>(exactQuotient(num, den)),
              std::bit_cast<uint32_t>(float(num) / float(den)))
        << num << "/" << den;
  }
  // Larger denominators: against double division rounded to float (the double is within
  // 2^-53 relative, far from a float rounding boundary for these values).
  for (int i = 0; i < 200000; ++i) {
    uint32_t num = 1 + rng() % 256, den = (1u << 24) + rng() % ((1u << 31) - (1u << 24));
    ASSERT_EQ(exactQuotient(num, den), float(double(num) / double(den))) << num << "/" << den;
  }
  EXPECT_EQ(exactQuotient(1, 1), 1.0f);
  EXPECT_EQ(exactQuotient(256, 1), 256.0f);
  EXPECT_EQ(exactQuotient(1, 3), 1.0f / 3.0f);
}

TEST(ScaleReference, SeedFormula) {
  // 100 pixels, 4 bins: 0.2 * bins / pixels = 0.008 = 4 / 500, 1 / max.
  std::vector<uint32_t> counts = {10, 100, 50, 0, 30, 0, 10, 0};  // [bin][c0 c1], max 50 / 100
  std::vector<ChannelScale> s = scaleReference(counts, 4, 2, 100);
  EXPECT_EQ(s[0].max_count, 50u);
  EXPECT_EQ(s[0].denominator, 200u);  // 1/50 > 0.008: scale = 4 / (50 * 4)
  EXPECT_EQ(s[0].scale, 0.02f);
  EXPECT_EQ(s[1].max_count, 100u);
  EXPECT_EQ(s[1].denominator, 400u);
  EXPECT_EQ(s[1].scale, 0.01f);
  // 1000 pixels: 0.2 * 4 / 1000 = 0.0008 < 1/100; 1 pixel max 1 with 256 bins: 0.2*256 = 51.2.
  EXPECT_EQ(scaleReference({1}, 1, 1, 1)[0].denominator, 1u);  // min(1 * 1, 5)
  EXPECT_EQ(scaleReference(std::vector<uint32_t>(256, 1), 256, 1, 256)[0].scale, 1.0f);
}

class ScaleForms : public ::testing::TestWithParam<ScaleForm> {};

TEST_P(ScaleForms, GpuMatchesReferenceOnRandomAndRealHistograms) {
  // Both ways of finding the largest counts, whichever this GPU's default is.
  GlContext& gl = test::glContext();
  Result<HistogramScale> scale = HistogramScale::create(gl, GetParam());
  ASSERT_TRUE(scale.ok()) << scale.error().message;
  std::mt19937 rng(8);
  auto check = [&](const std::vector<uint32_t>& counts, int bins, int channels, uint64_t pixels) {
    Result<GlBuffer> buffer = makeStorageBuffer(counts.size(), "test bins");
    ASSERT_TRUE(buffer.ok());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer->get());
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(counts.size() * 4), counts.data());
    ASSERT_TRUE(scale->poison(test::kPoison).ok());
    Status s = scale->run(buffer->get(), bins, channels, pixels);
    ASSERT_TRUE(s.ok()) << s.error().message;
    Result<std::vector<ChannelScale>> got = scale->read(channels);
    ASSERT_TRUE(got.ok());
    ASSERT_EQ(got.value(), scaleReference(counts, bins, channels, pixels))
        << bins << " bins, " << channels << " channels, " << pixels << " pixels";
  };
  for (int bins : {1, 3, 16, 255, 256}) {
    for (int channels : {1, 2, 3, 4}) {
      for (test::Content c : test::kAllContents) {
        RgbaImage img = test::makeImage(127, 129, c, 6);
        check(histogramReference(img, bins, std::string("rgbl").substr(0, size_t(channels)),
                                 LumaWeights::kBt709),
              bins, channels, img.pixelCount());
      }
      for (uint64_t pixels : {1ull, 7ull, 2073600ull, 429496729ull}) {
        std::vector<uint32_t> counts(size_t(bins * channels));
        for (uint32_t& v : counts) v = uint32_t(rng() % (pixels + 1));
        check(counts, bins, channels, pixels);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Scale, ScaleForms, ::testing::Values(ScaleForm::kLoop, ScaleForm::kTree),
                         [](const ::testing::TestParamInfo<ScaleForm>& info) {
                           return std::string(info.param == ScaleForm::kLoop ? "Loop" : "Tree");
                         });

TEST(Scale, ReadsAHistogramStraightFromTheGpu) {
  // Histogram then scale with no CPU round trip: the barrier between them must hold.
  GlContext& gl = test::glContext();
  Result<HistogramScale> scale = HistogramScale::create(gl);
  ASSERT_TRUE(scale.ok());
  for (const char* channels : {"rgbl", "l"}) {
    HistogramParams p = HistogramParams::defaultsFor(gl);
    p.channels = channels;
    p.bins = 64;
    Result<Histogram> h = Histogram::create(gl, p);
    ASSERT_TRUE(h.ok()) << h.error().message;
    for (test::Content c : test::kAllContents) {
      RgbaImage img = test::makeImage(257, 129, c, 14);
      Result<GpuImage> gpu = GpuImage::fromImage(img);
      ASSERT_TRUE(gpu.ok());
      ASSERT_TRUE(h->poison(img.width, img.height, test::kPoison).ok());
      ASSERT_TRUE(scale->poison(test::kPoison).ok());
      ASSERT_TRUE(h->run(gpu.value()).ok());
      ASSERT_TRUE(scale->run(h.value(), img.pixelCount()).ok());
      Result<std::vector<ChannelScale>> got = scale->read(p.channelCount());
      ASSERT_TRUE(got.ok());
      EXPECT_EQ(got.value(), scaleReference(histogramReference(img, p.bins, p.channels, p.luma),
                                            p.bins, p.channelCount(), img.pixelCount()))
          << channels << " " << test::contentName(c);
    }
  }
}

TEST(Scale, RefusesPixelCountsPastTheBound) {
  Result<HistogramScale> scale = HistogramScale::create(test::glContext());
  ASSERT_TRUE(scale.ok());
  Status s = scale->run(0, 256, 4, 429496730ull);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("pixel count 429496730"), std::string::npos);
  // A valid image the shader's arithmetic cannot take, unlike a bad bin count.
  EXPECT_EQ(s.error().code, ErrorCode::kUnsupported) << errorCodeName(s.error().code);
  s = scale->run(0, 0, 4, 100);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("bins"), std::string::npos) << s.error().message;
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument) << errorCodeName(s.error().code);
}

}  // namespace
}  // namespace esf
