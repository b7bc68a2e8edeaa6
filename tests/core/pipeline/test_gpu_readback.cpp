// The GPU backend reads a frame's results back with one map: the histogram's counts at both bin
// counts, the scales, the scopes (the image's and a YUV frame's chroma counts), signalstats' sums
// and its Y plane's TOUT and VREP counts, the health sums, blurdetect's block counts, and a Bayer
// frame's raw statistics, each in a buffer of its own, copied on the GPU into one buffer. Counted
// with readWordsMaps() around each frame, and each result equal to the reference backend's.
#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <tuple>
#include <utility>
#include <vector>

#include "core/stages/stage_gl.hpp"
#include "esframe/esframe.hpp"
#include "tests/support/random_frame.hpp"

namespace esf {
namespace {

PipelineConfig everyResult() {
  PipelineConfig c;
  c.histogram.bins = 64;  // the 256-value histogram beside the binned one
  c.scopes.waveform = c.scopes.parade = c.scopes.vectorscope = true;
  c.signalstats = true;
  c.signalstats_tout = c.signalstats_vrep = true;
  HealthConfig health;
  health.grid_columns = 2;
  health.grid_rows = 2;
  c.health = health;
  BlurDetectConfig blur;  // counted on the GPU for these formats (test_blur_detect.cpp)
  blur.planes = 7;
  blur.block_width = blur.block_height = 16;
  c.detect.blur = blur;
  return c;
}

// Each channel's letter, pixels, sum, min, max, p50 and p99, compared in one go.
using CountFigures = std::tuple<char, uint64_t, uint64_t, uint32_t, uint32_t, uint32_t, uint32_t>;
std::vector<CountFigures> countFigures(const std::vector<ChannelStats>& stats) {
  std::vector<CountFigures> out;
  for (const ChannelStats& s : stats)
    out.emplace_back(s.channel, s.count, s.sum, s.min, s.max, s.p50, s.p99);
  return out;
}

using Sizes = std::vector<std::pair<int, int>>;
// Compares one frame's results, the GPU backend's with the reference backend's.
using SameResults = std::function<void(const FrameResult& got, const FrameResult& want)>;

// `formats` at `sizes` through the reference and the GPU backend: each GPU frame after a format's
// or size's first maps its GPU buffers once, and its results are `same` as the reference's.
void checkOneMapPerFrame(const PipelineConfig& asked, const std::vector<PixelFormat>& formats,
                         const Sizes& sizes, const SameResults& same) {
  std::vector<std::unique_ptr<Pipeline>> pipelines;
  for (Backend backend : {Backend::kReference, Backend::kGles}) {
    PipelineConfig config = asked;
    config.backend = backend;
    Result<std::unique_ptr<Pipeline>> p = Pipeline::create(config);
    ASSERT_TRUE(p.ok()) << p.error().message;
    pipelines.push_back(std::move(p.value()));
  }
  uint32_t seed = 11;
  for (PixelFormat format : formats) {
    for (auto [w, h] : sizes) {
      for (int i = 0; i < 3; ++i) {
        SCOPED_TRACE(testing::Message()
                     << formatName(format) << " " << w << "x" << h << " frame " << i);
        const test::TestFrame t =
            test::randomFrame(format, w, h, 2, test::kColorimetries[1], ++seed);
        Result<FrameResult> want = pipelines[0]->process(t.frame);
        ASSERT_TRUE(want.ok()) << want.error().message;
        // The first frame of a format or size also builds its stages; only its frames count.
        if (i == 0) {
          ASSERT_TRUE(pipelines[1]->process(t.frame).ok());
          continue;
        }
        const uint64_t maps_before = readWordsMaps();
        Result<FrameResult> got = pipelines[1]->process(t.frame);
        const uint64_t maps = readWordsMaps() - maps_before;
        ASSERT_TRUE(got.ok()) << got.error().message;
        EXPECT_EQ(maps, 1u) << "maps of GPU buffers for one frame";
        same(*got, *want);
      }
    }
  }
}

// Every result of a YUV, RGB or GREY frame.
void checkOneMapPerFrame(const PipelineConfig& asked) {
  checkOneMapPerFrame(
      asked, {PixelFormat::kNV12, PixelFormat::kYUYV, PixelFormat::kRGBA32, PixelFormat::kGREY},
      {{64, 48}, {34, 17}}, [](const FrameResult& got, const FrameResult& want) {
        EXPECT_EQ(got.hist, want.hist);
        EXPECT_EQ(got.scale, want.scale);
        // The statistics come from the 256-value counts (the binned ones have 64 bins).
        EXPECT_EQ(countFigures(got.stats), countFigures(want.stats));
        EXPECT_EQ(got.scopes, want.scopes);
        EXPECT_EQ(got.signalstats, want.signalstats);
        ASSERT_TRUE(got.health.has_value());
        EXPECT_EQ(got.health, want.health);
        ASSERT_TRUE(got.blur.has_value() && want.blur.has_value());
        EXPECT_EQ(std::bit_cast<uint32_t>(*got.blur), std::bit_cast<uint32_t>(*want.blur))
            << "blur " << *got.blur << ", reference " << *want.blur;
      });
}

TEST(GpuReadback, OneMapPerFrameForEveryResult) {
  checkOneMapPerFrame(everyResult());
}

// L alone from the source's luma (its own histogram, and the waveform's lane).
TEST(GpuReadback, OneMapPerFrameWithTheSourcesLuma) {
  PipelineConfig c = everyResult();
  c.luma = LumaSource::kSource;
  c.histogram.channels = "l";
  checkOneMapPerFrame(c);
}

// Bayer frames: the raw statistics, counted on the GPU from the uploaded values, come back in the
// same one map as the histograms and equal the reference backend's host count.
TEST(GpuReadback, OneMapPerBayerFrameWithItsRawStatistics) {
  PipelineConfig c;
  c.histogram.bins = 64;
  c.raw = RawConfig{16, 0, 256, 256};
  checkOneMapPerFrame(c, {PixelFormat::kSGRBG8, PixelFormat::kSRGGB10P, PixelFormat::kSBGGR16},
                      {{64, 48}, {36, 17}}, [](const FrameResult& got, const FrameResult& want) {
                        EXPECT_EQ(got.hist, want.hist);
                        ASSERT_TRUE(want.raw.has_value());
                        EXPECT_EQ(got.raw, want.raw);
                      });
}

}  // namespace
}  // namespace esf
