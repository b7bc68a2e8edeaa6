// PipelineConfig::scopes on every backend: the same counts from the references, the executor
// and the GPU, for YUV, RGB, GREY and Bayer frames, with blur, resize, the source's luma and
// column counts; the sums are the pixel and chroma sample counts, and the waveform summed over
// its columns is the frame's own L histogram.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <utility>
#include <vector>

#include "core/tuning/tuned_params.hpp"
#include "core/tuning/tuning_cache.hpp"
#include "esframe/esframe.hpp"
#include "tests/support/gl_test_context.hpp"
#include "tests/support/random_frame.hpp"
#include "tests/support/temp_path.hpp"

namespace esf {
namespace {

uint64_t total(const std::vector<uint32_t>& counts) {
  uint64_t sum = 0;
  for (uint32_t c : counts) sum += c;
  return sum;
}

struct Variant {
  const char* name;
  PipelineConfig config;
};

std::vector<Variant> variants() {
  PipelineConfig all;
  all.scopes.waveform = all.scopes.parade = all.scopes.vectorscope = true;
  std::vector<Variant> out = {{"all scopes", all}};
  PipelineConfig c = all;
  c.scopes.columns = 7;
  out.push_back({"7 columns", c});
  c = all;
  c.luma = LumaSource::kSource;
  out.push_back({"luma from the source", c});
  c = all;
  c.luma = LumaSource::kSource;
  c.histogram.channels = "rg";  // the waveform alone takes the source's luma lane
  c.scopes.parade = false;
  out.push_back({"waveform of the source's luma without an L channel", c});
  c = all;
  c.blur = BlurConfig{3, 1};
  c.resize = Size{19, 11};
  c.luma = LumaSource::kSource;
  out.push_back({"blur and resize", c});
  c = PipelineConfig{};
  c.scopes.vectorscope = true;
  c.image_needed = false;
  out.push_back({"vectorscope alone, no image", c});
  // No image: the GPU counts the histogram's packed buffer (the luma lane's too).
  c = all;
  c.image_needed = false;
  out.push_back({"all scopes, no image", c});
  c.luma = LumaSource::kSource;
  c.scopes.columns = 5;
  out.push_back({"luma from the source, 5 columns, no image", c});
  c = all;
  c.image_needed = false;
  c.blur = BlurConfig{3, 1};
  out.push_back({"blur, no image", c});
  c.blur.reset();
  c.resize = Size{19, 11};
  out.push_back({"resize, no image", c});
  return out;
}

// Every variant on every backend and format: the same counts. `packed`: the GPU's histogram
// reads packed buffers (a tuning cache, as NVIDIA's defaults do): where no blur, resize or sink
// needs an image, the frame has none (the scopes count the packed buffer).
void checkEveryBackend(bool packed) {
  const PixelFormat formats[] = {PixelFormat::kNV12,    PixelFormat::kNV21,  PixelFormat::kYUYV,
                                 PixelFormat::kUYVY,    PixelFormat::kYU12,  PixelFormat::kYUV422P,
                                 PixelFormat::kYUV444P, PixelFormat::kRGB24, PixelFormat::kRGBA32,
                                 PixelFormat::kGREY,    PixelFormat::kSRGGB8};
  const std::vector<Variant> all_variants = variants();
  for (size_t vi = 0; vi < all_variants.size(); ++vi) {
    const Variant& v = all_variants[vi];
    SCOPED_TRACE(v.name);
    std::vector<std::unique_ptr<Pipeline>> pipelines;
    for (Backend backend : {Backend::kReference, Backend::kCpu, Backend::kGles}) {
      PipelineConfig config = v.config;
      config.backend = backend;
      config.threads = 3;
      Result<std::unique_ptr<Pipeline>> p = Pipeline::create(config);
      ASSERT_TRUE(p.ok()) << p.error().message;
      pipelines.push_back(std::move(p.value()));
    }
    for (PixelFormat format : formats) {
      // The first two variants take every size; the others the sizes whose row and column
      // edges differ (a single pixel, 257x3, several workgroups both ways).
      std::vector<std::pair<int, int>> sizes = test::importSizes(format);
      if (vi >= 2) sizes = {sizes[0], sizes[2], sizes[4]};
      for (auto [w, h] : sizes) {
        if (v.config.resize && (w < 19 || h < 11)) continue;
        if (format == PixelFormat::kSRGGB8 && (w < 2 || h < 2)) continue;  // the demosaic's least
        for (bool flat : {false, true}) {
          SCOPED_TRACE(testing::Message() << formatName(format) << " " << w << "x" << h
                                          << (flat ? " flat" : " noise"));
          test::TestFrame t = test::randomFrame(format, w, h, 3, test::kColorimetries[2], 5);
          if (flat)
            for (std::vector<uint8_t>& plane : t.planes) std::fill(plane.begin(), plane.end(), 90);
          std::optional<ScopeCounts> want;
          std::optional<HistogramData> want_hist;  // the executor sums it from the scopes' columns
          for (auto& p : pipelines) {
            SCOPED_TRACE(backendName(p->backend()));
            Result<FrameResult> r = p->process(t.frame);
            ASSERT_TRUE(r.ok()) << r.error().message;
            ASSERT_TRUE(r->scopes.has_value());
            const ScopeCounts& s = *r->scopes;
            const uint64_t pixels = uint64_t(r->width) * uint64_t(r->height);
            const ScopeOptions& asked = v.config.scopes;
            EXPECT_EQ(s.waveform.empty(), !asked.waveform);
            EXPECT_EQ(s.parade.empty(), !asked.parade);
            EXPECT_EQ(s.vectorscope.empty(), !asked.vectorscope);
            if (asked.waveform) {
              EXPECT_EQ(total(s.waveform), pixels);
            }
            if (asked.parade) {
              EXPECT_EQ(total(s.parade), 3 * pixels);
            }
            if (asked.vectorscope) {
              EXPECT_EQ(total(s.vectorscope), s.vectorscope_samples);
              // Chroma samples: 4:2:0 halves both sizes, 4:2:2 the width, 4:4:4 neither.
              const bool yuv = format == PixelFormat::kNV12 || format == PixelFormat::kNV21 ||
                               format == PixelFormat::kYUYV || format == PixelFormat::kUYVY ||
                               format == PixelFormat::kYU12 || format == PixelFormat::kYUV422P ||
                               format == PixelFormat::kYUV444P;
              const bool half_width = yuv && format != PixelFormat::kYUV444P;
              const bool half_height = format == PixelFormat::kNV12 ||
                                       format == PixelFormat::kNV21 || format == PixelFormat::kYU12;
              const uint64_t chroma =
                  uint64_t(half_width ? (w + 1) / 2 : w) * uint64_t(half_height ? (h + 1) / 2 : h);
              EXPECT_EQ(s.vectorscope_samples, yuv ? chroma : pixels);
            }
            // The waveform over its columns: the L histogram the frame reports, where it has one.
            const size_t l = r->hist.channels.find('l');
            if (asked.waveform && l != std::string::npos) {
              for (int level = 0; level < 256; ++level) {
                uint64_t sum = 0;
                for (int c = 0; c < s.columns; ++c)
                  sum += s.waveform[size_t(c) * 256 + size_t(level)];
                ASSERT_EQ(sum, r->hist.counts[size_t(level) * r->hist.channels.size() + l])
                    << "level " << level;
              }
            }
            if (packed && p->backend() == Backend::kGles) {
              ASSERT_NE(r->gpu, nullptr);
              const bool image_needed = v.config.image_needed || v.config.blur || v.config.resize ||
                                        format == PixelFormat::kSRGGB8;
              EXPECT_EQ(r->gpu->image_texture != 0, image_needed) << "an RGBA image was made";
            }
            if (!want) {
              want = s;
              want_hist = r->hist;
            } else {
              EXPECT_EQ(s, *want);
              EXPECT_EQ(r->hist.counts, want_hist->counts);
            }
          }
        }
      }
    }
  }
}

TEST(ScopesBackends, EveryBackendCountsTheSameScopes) {
  checkEveryBackend(false);
}

// The GPU's histogram on packed buffers, from a tuning cache in a scratch $XDG_CACHE_HOME.
TEST(ScopesBackends, EveryBackendCountsTheSameScopesWithThePackedHistogram) {
  const std::filesystem::path dir = test::freshTempPath("esf-scopes-packed", true);
  ASSERT_EQ(setenv("XDG_CACHE_HOME", dir.c_str(), 1), 0);
  TuningCache cache = TuningCache::load(TuningCache::defaultPath(), nullptr);
  HistogramParams hp;
  hp.strategy = HistogramStrategy::kReplicated;
  hp.source = ImageSource::kPackedBuffer;
  hp.workgroup_size = 64;
  hp.workgroups = 16;
  hp.pixels_per_invocation = 4;
  hp.replicas = 2;
  ASSERT_TRUE(hp.validate(test::glContext().limits()).ok());
  for (const char* size_class : {"640x480", "1280x720", "1920x1080", "3840x2160", "larger"})
    cache.put({DeviceKey::of(test::glContext()), size_class, "histogram", tunedFieldsToJson(hp),
               1.0, "64x48", utcTimestamp()});
  ASSERT_TRUE(cache.save().ok());
  checkEveryBackend(true);
  unsetenv("XDG_CACHE_HOME");
  std::filesystem::remove_all(dir);
}

// PipelineConfig::signalstats on the GPU (its counts beside the YUV vectorscope, TOUT and VREP
// from the Y plane's texture) equals the reference backend's host count frame by frame: every YUV
// layout, odd sizes, noise and flat frames in one run (UDIF and VDIF against the YUV frame before,
// through an RGB frame between, none after a change of size), with and without the scopes.
TEST(ScopesBackends, SignalstatsOnTheGpuEqualTheReference) {
  const PixelFormat formats[] = {PixelFormat::kNV12,   PixelFormat::kNV21, PixelFormat::kYUYV,
                                 PixelFormat::kUYVY,   PixelFormat::kYU12, PixelFormat::kYUV422P,
                                 PixelFormat::kYUV444P};
  for (bool scopes : {false, true}) {
    std::vector<std::unique_ptr<Pipeline>> pipelines;
    for (Backend backend : {Backend::kReference, Backend::kGles}) {
      PipelineConfig config;
      config.backend = backend;
      config.signalstats = true;
      config.signalstats_tout = config.signalstats_vrep = true;
      config.scopes.vectorscope = scopes;
      Result<std::unique_ptr<Pipeline>> p = Pipeline::create(config);
      ASSERT_TRUE(p.ok()) << p.error().message;
      pipelines.push_back(std::move(p.value()));
    }
    uint32_t seed = 70;
    for (PixelFormat format : formats) {
      for (auto [w, h] : test::importSizes(format)) {
        for (int content = 0; content < 3; ++content) {  // noise, flat, noise again
          SCOPED_TRACE(testing::Message() << formatName(format) << " " << w << "x" << h
                                          << " content " << content << " scopes " << scopes);
          test::TestFrame t = test::randomFrame(format, w, h, 3, test::kColorimetries[1], ++seed);
          if (content == 1)
            for (std::vector<uint8_t>& plane : t.planes) std::fill(plane.begin(), plane.end(), 240);
          if (content == 2) {  // an RGB frame between: none, and UDIF still against content 1
            const test::TestFrame rgb =
                test::randomFrame(PixelFormat::kRGB24, w, h, 0, test::kColorimetries[1], seed);
            for (auto& p : pipelines) {
              Result<FrameResult> r = p->process(rgb.frame);
              ASSERT_TRUE(r.ok()) << r.error().message;
              EXPECT_FALSE(r->signalstats.has_value());
            }
          }
          Result<FrameResult> want = pipelines[0]->process(t.frame);
          Result<FrameResult> got = pipelines[1]->process(t.frame);
          ASSERT_TRUE(want.ok()) << want.error().message;
          ASSERT_TRUE(got.ok()) << got.error().message;
          ASSERT_TRUE(want->signalstats.has_value());
          ASSERT_TRUE(got->signalstats.has_value());
          EXPECT_TRUE(got->signalstats->tout.has_value());
          EXPECT_TRUE(got->signalstats->vrep.has_value());
          EXPECT_EQ(*got->signalstats, *want->signalstats);
          EXPECT_EQ(got->scopes.has_value(), scopes);
        }
      }
    }
  }
}

TEST(ScopesBackends, ColumnsOutsideTheirRangeAreRefusedNamingTheField) {
  PipelineConfig config;
  config.backend = Backend::kReference;
  config.scopes.waveform = true;
  config.scopes.columns = kScopeMaxColumns + 1;
  Result<std::unique_ptr<Pipeline>> p = Pipeline::create(config);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(p.error().message.find("scopes columns"), std::string::npos) << p.error().message;
  config.scopes.columns = -1;
  EXPECT_FALSE(Pipeline::create(config).ok());
}

}  // namespace
}  // namespace esf
