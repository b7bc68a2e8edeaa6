// Bayer frames through Pipeline::process on every backend: gles (the demosaic stage on the GPU),
// the CPU executor (core/cpu/cpu_bayer) at several thread counts, and the plain references must
// give the same image bit for bit (the GPU's read back from the frame view), the same histograms,
// stats and raw statistics; random seeded frames at the smallest, odd and wide sizes, flat
// frames, and packed 10P/12P rows.
#include <GLES3/gl31.h>
#include <gtest/gtest.h>

#include <random>

#include "base/pixel_format.hpp"
#include "capture/frame_encode.hpp"
#include "core/image/gpu_image.hpp"
#include "esframe/esframe.hpp"

namespace esf {
namespace {

struct Outcome {
  FrameResult result;
  std::vector<uint8_t> image;
};

Outcome process(Pipeline& p, const Frame& frame) {
  Result<FrameResult> r = p.process(frame);
  EXPECT_TRUE(r.ok()) << r.error().message;
  if (!r.ok()) return {};
  Outcome o{r.value(), {}};
  if (r->image)
    o.image = r->image->pixels;
  else if (r->gpu)
    o.image = GpuImage::downloadTexture(r->gpu->image_texture, r->gpu->width, r->gpu->height)
                  .value()
                  .pixels;
  o.result.image = nullptr, o.result.gpu = nullptr;
  o.result.timings.clear();
  return o;
}

void expectSame(const Outcome& got, const Outcome& want) {
  ASSERT_EQ(got.image, want.image);
  EXPECT_EQ(got.result.hist, want.result.hist);
  ASSERT_TRUE(got.result.raw.has_value());
  EXPECT_EQ(*got.result.raw, *want.result.raw);
  ASSERT_EQ(got.result.stats.size(), want.result.stats.size());
  for (size_t i = 0; i < got.result.stats.size(); ++i) {
    EXPECT_EQ(got.result.stats[i].sum, want.result.stats[i].sum);
    EXPECT_EQ(got.result.stats[i].p50, want.result.stats[i].p50);
  }
  EXPECT_EQ(got.result.scale, want.result.scale);
}

TEST(BayerBackends, EveryBackendGivesTheReferencesImageAndStatistics) {
  PipelineConfig base;
  base.histogram.bins = 64;
  base.raw = RawConfig{32, 0, 300, 200};
  std::vector<std::unique_ptr<Pipeline>> pipelines;
  for (auto [backend, threads] : {std::pair{Backend::kReference, 0},
                                  {Backend::kGles, 0},
                                  {Backend::kCpu, 1},
                                  {Backend::kCpu, 3}}) {
    PipelineConfig c = base;
    c.backend = backend, c.threads = threads;
    Result<std::unique_ptr<Pipeline>> p = Pipeline::create(c);
    ASSERT_TRUE(p.ok()) << p.error().message;
    pipelines.push_back(std::move(p.value()));
  }
  const struct {
    PixelFormat format;
    int w, h;
    bool flat;
  } cases[] = {{PixelFormat::kSRGGB10, 2, 2, false},   {PixelFormat::kSGBRG8, 5, 3, false},
               {PixelFormat::kSGRBG12, 257, 3, false}, {PixelFormat::kSBGGR16, 16, 16, true},
               {PixelFormat::kSRGGB10P, 36, 9, false}, {PixelFormat::kSBGGR12P, 14, 11, false},
               {PixelFormat::kSGRBG8, 64, 48, true}};
  std::mt19937 rng(2024);
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::Message() << formatName(c.format) << " " << c.w << "x" << c.h);
    RgbaImage img(c.w, c.h);
    const uint8_t level = uint8_t(rng());
    for (auto& b : img.pixels) b = c.flat ? level : uint8_t(rng());
    Result<std::vector<uint8_t>> bytes = encodeRgba(img, c.format, {});
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    Result<std::optional<Frame>> frame = makeTightFrame(c.format, c.w, c.h, {}, *bytes, 1, 0, "t");
    ASSERT_TRUE(frame.ok()) << frame.error().message;
    const Outcome want = process(*pipelines[0], **frame);
    ASSERT_EQ(want.image.size(), size_t(c.w) * size_t(c.h) * 4);
    for (size_t i = 1; i < pipelines.size(); ++i) {
      SCOPED_TRACE(i);
      expectSame(process(*pipelines[i], **frame), want);
    }
  }
}

// Levels a format's frames cannot take (black above 8 bits) are refused at each such frame, the
// same way on every backend, while the same run's frames of a deeper format go through; a
// refused format is not set up again, so its later frames fail the same way.
TEST(BayerBackends, LevelsAFormatCannotTakeAreRefusedAtEachOfItsFrames) {
  for (Backend backend : {Backend::kReference, Backend::kGles, Backend::kCpu}) {
    SCOPED_TRACE(backendName(backend));
    PipelineConfig c;
    c.backend = backend;
    c.raw = RawConfig{300, 0, 256, 256};
    Result<std::unique_ptr<Pipeline>> p = Pipeline::create(c);
    ASSERT_TRUE(p.ok()) << p.error().message;
    RgbaImage img(6, 4);
    for (size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = uint8_t(i * 37);
    // The frames point into these bytes, which outlive them.
    const std::vector<uint8_t> shallow_bytes = encodeRgba(img, PixelFormat::kSRGGB8, {}).value();
    const std::vector<uint8_t> deep_bytes = encodeRgba(img, PixelFormat::kSRGGB10, {}).value();
    auto frameOf = [&](PixelFormat format, const std::vector<uint8_t>& bytes) {
      return makeTightFrame(format, img.width, img.height, {}, bytes, 1, 0, "t").value().value();
    };
    const Frame shallow = frameOf(PixelFormat::kSRGGB8, shallow_bytes);
    const Frame deep = frameOf(PixelFormat::kSRGGB10, deep_bytes);
    Result<FrameResult> first = (*p)->process(shallow);
    ASSERT_FALSE(first.ok());
    EXPECT_EQ(first.error().code, ErrorCode::kInvalidArgument) << first.error().message;
    EXPECT_NE(first.error().message.find("black"), std::string::npos) << first.error().message;
    Result<FrameResult> again = (*p)->process(shallow);
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().message, first.error().message);
    Result<FrameResult> other = (*p)->process(deep);
    ASSERT_TRUE(other.ok()) << other.error().message;
    ASSERT_TRUE(other->raw.has_value());
    Result<FrameResult> back = (*p)->process(shallow);
    ASSERT_FALSE(back.ok());
    EXPECT_EQ(back.error().message, first.error().message);
  }
}

}  // namespace
}  // namespace esf
