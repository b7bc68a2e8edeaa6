// The executor backend's luma-only pass (PipelineConfig::image_needed = false, L from the source's
// Y bytes, no other channel, no blur or resize): no RGBA image at all, and the same histogram,
// stats and scale as the plain reference backend; with an image needed, the image is there.
#include <gtest/gtest.h>

#include "esframe/pipeline.hpp"
#include "tests/support/random_frame.hpp"

namespace esf {
namespace {

void expectSameStats(const FrameResult& got, const FrameResult& want, const std::string& what) {
  ASSERT_EQ(got.stats.size(), want.stats.size()) << what;
  for (size_t c = 0; c < got.stats.size(); ++c) {
    const ChannelStats &g = got.stats[c], &w = want.stats[c];
    EXPECT_EQ(g.count, w.count) << what;
    EXPECT_EQ(g.sum, w.sum) << what;
    EXPECT_EQ(g.min, w.min) << what;
    EXPECT_EQ(g.max, w.max) << what;
    EXPECT_EQ(g.p50, w.p50) << what;
    EXPECT_EQ(g.msv, w.msv) << what;
  }
}

TEST(CpuExecutorBackend, LumaOnlyWithoutAnImageEqualsTheReference) {
  uint32_t seed = 11;
  for (PixelFormat f :
       {PixelFormat::kNV12, PixelFormat::kYUYV, PixelFormat::kYU12, PixelFormat::kGREY})
    for (auto [w, h] : test::importSizes(f))
      for (bool image_needed : {false, true}) {
        test::TestFrame t = test::randomFrame(f, w, h, 5, Colorimetry{}, seed++);
        PipelineConfig config;
        config.histogram.channels = "l";
        config.histogram.bins = 64;
        config.luma = LumaSource::kSource;
        config.image_needed = image_needed;
        config.threads = 2;
        config.backend = Backend::kReference;
        Result<std::unique_ptr<Pipeline>> reference = Pipeline::create(config);
        config.backend = Backend::kCpu;
        Result<std::unique_ptr<Pipeline>> cpu = Pipeline::create(config);
        ASSERT_TRUE(reference.ok() && cpu.ok());
        Result<FrameResult> want = (*reference)->process(t.frame);
        Result<FrameResult> got = (*cpu)->process(t.frame);
        const std::string what = std::string(formatName(f)) + " " + std::to_string(w) + "x" +
                                 std::to_string(h) + (image_needed ? " with" : " without") +
                                 " an image";
        ASSERT_TRUE(want.ok()) << what << ": " << want.error().message;
        ASSERT_TRUE(got.ok()) << what << ": " << got.error().message;
        EXPECT_EQ(got->hist, want->hist) << what;
        EXPECT_EQ(got->scale, want->scale) << what;
        EXPECT_EQ(got->width, w) << what;
        EXPECT_EQ(got->height, h) << what;
        expectSameStats(*got, *want, what);
        EXPECT_EQ(got->image != nullptr, image_needed) << what;
        if (image_needed) {
          EXPECT_EQ(*got->image, *want->image) << what;
        }
      }
}

}  // namespace
}  // namespace esf
