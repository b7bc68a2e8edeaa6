// Histogram: every strategy and both image sources against the CPU reference, bit for bit.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "core/image/gpu_image.hpp"
#include "core/stages/histogram.hpp"
#include "core/stages/histogram_reference.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

using test::Content;

constexpr HistogramStrategy kStrategies[] = {
    HistogramStrategy::kSingle,     HistogramStrategy::kGlobalAtomic,
    HistogramStrategy::kChunkSum,   HistogramStrategy::kChunkReduce,
    HistogramStrategy::kPersistent, HistogramStrategy::kReplicated};

std::string describe(const HistogramParams& p) {
  return std::string(histogramStrategyName(p.strategy)) + " bins=" + std::to_string(p.bins) +
         " channels=" + p.channels + " luma=" + lumaWeightsName(p.luma) +
         " source=" + imageSourceName(p.source) + " tile=" + std::to_string(p.tile_width) + "x" +
         std::to_string(p.tile_height) + " wg=" + std::to_string(p.workgroup_size) +
         " groups=" + std::to_string(p.workgroups) +
         " ppi=" + std::to_string(p.pixels_per_invocation) +
         " atomics=" + std::to_string(p.shared_atomics) +
         " replicas=" + std::to_string(p.replicas) + " rle=" + std::to_string(p.run_length) +
         " planar=" + std::to_string(p.planar) + " batch=" + std::to_string(p.batch_loads);
}

// Compiling is the slow part on llvmpipe: one Histogram per configuration per test binary.
// Null where the parameters are beyond ESFRAME_GL_LIMITS=gles31-min (refused, as they must be)
// or the stage failed (a failure of the test).
Histogram* histogramFor(const HistogramParams& p) {
  static std::map<std::string, std::unique_ptr<Histogram>> cache;
  std::unique_ptr<Histogram>& h = cache[describe(p)];
  if (!h) {
    Result<Histogram> made = Histogram::create(test::glContext(), p);
    if (test::refusedForSpecMinimums(p.validate(test::glContext().limits()), made)) return nullptr;
    if (!made) {
      ADD_FAILURE() << describe(p) << ": " << made.error().message;
      return nullptr;
    }
    h = std::make_unique<Histogram>(std::move(made.value()));
  }
  return h.get();
}

// A run the stage must refuse rather than miscount, on a blank w x h `Image`: past llvmpipe's
// loop limit, a driver's limit and not a bad parameter (kUnsupported), named in `part`.
template <class Image>
void expectRunRefused(const HistogramParams& p, int w, int h, std::string_view part) {
  Result<Image> img = Image::create(w, h);
  ASSERT_TRUE(img.ok());
  Histogram* found = histogramFor(p);
  if (!found) return;  // refused beyond ESFRAME_GL_LIMITS=gles31-min, or already a failure
  Status s = found->run(img.value());
  test::expectRefusal(s, part);
  if (!s.ok()) {
    EXPECT_EQ(s.error().code, ErrorCode::kUnsupported) << errorCodeName(s.error().code);
  }
}

// Poisons, runs, reads back and compares with the reference.
void expectMatches(const HistogramParams& p, const RgbaImage& image, const std::string& what) {
  Histogram* found = histogramFor(p);
  if (!found) return;  // refused beyond ESFRAME_GL_LIMITS=gles31-min, or already a failure
  Histogram& h = *found;
  ASSERT_TRUE(h.poison(image.width, image.height, test::kPoison).ok());
  Status ran = Status::success();
  if (p.source == ImageSource::kTexture) {
    Result<GpuImage> gpu = GpuImage::fromImage(image);
    ASSERT_TRUE(gpu.ok()) << gpu.error().message;
    ran = h.run(gpu.value());
  } else {
    Result<PackedRgbaBuffer> gpu = PackedRgbaBuffer::fromImage(image);
    ASSERT_TRUE(gpu.ok()) << gpu.error().message;
    ran = h.run(gpu.value());
  }
  ASSERT_TRUE(ran.ok()) << describe(p) << ": " << ran.error().message;
  Result<std::vector<uint32_t>> got = h.read();
  ASSERT_TRUE(got.ok()) << got.error().message;
  std::vector<uint32_t> want = histogramReference(image, p.bins, p.channels, p.luma);
  ASSERT_EQ(got.value(), want) << describe(p) << " on " << what;
}

TEST(HistogramReference, HandCountedImage) {
  // 3x1: pure red, pure white, black. BT.709 luma of red = (13933*255 + 32768) >> 16 = 54.
  RgbaImage img(3, 1);
  uint8_t px[] = {255, 0, 0, 255, 255, 255, 255, 255, 0, 0, 0, 255};
  std::copy(std::begin(px), std::end(px), img.pixels.begin());
  // 4 bins: bin = v * 4 >> 8, so 255 -> 3, 54 -> 0, 0 -> 0.
  std::vector<uint32_t> rl = histogramReference(img, 4, "rl", LumaWeights::kBt709);
  EXPECT_EQ(rl, (std::vector<uint32_t>{1, 2, 0, 0, 0, 0, 2, 1}));  // [bin][r l]
  EXPECT_EQ(lumaBt709(255, 255, 255), 255u);
  EXPECT_EQ(lumaBt601(255, 255, 255), 255u);
  EXPECT_EQ(lumaBt601(255, 0, 0), 77u);   // (77*255 + 128) >> 8 = 76.99 -> 77
  EXPECT_EQ(lumaBt709(0, 255, 0), 182u);  // 0.7152 * 255 = 182.4
}

// Every strategy from a texture on one odd frame, random and flat, at 256 bins and at 1 (every
// pixel in one bin): the smoke that the ASan and qemu-user runs keep when they leave out the
// matrices below (PackedBufferSourceAndBt601 keeps the packed source).
TEST(Histogram, SmokeEveryStrategyOnAnOddFrame) {
  test::glContext();
  for (HistogramStrategy strategy : kStrategies)
    for (int bins : {256, 1}) {
      HistogramParams p;
      p.strategy = strategy;
      p.bins = bins;
      p.workgroups = 3;
      for (Content c : {Content::kRandom, Content::kFlat255})
        expectMatches(p, test::makeImage(257, 3, c, 37), test::describe(257, 3, c));
      if (HasFatalFailure()) return;
    }
}

TEST(Histogram, EveryStrategyMatchesReferenceOnSmallSizes) {
  test::glContext();
  const std::string channel_sets[] = {"rgbl", "l", "gr"};
  const int bin_counts[] = {1, 3, 16, 255, 256};
  for (HistogramStrategy strategy : kStrategies) {
    for (int bins : bin_counts) {
      for (const std::string& channels : channel_sets) {
        HistogramParams p;
        p.strategy = strategy;
        p.bins = bins;
        p.channels = channels;
        p.workgroups = 3;  // fewer workgroups than pixels and more, across the sizes
        for (test::Size s : test::kSmallSizes)
          for (Content c : test::kAllContents)
            expectMatches(p, test::makeImage(s.w, s.h, c, uint32_t(s.w * 31 + s.h)),
                          test::describe(s.w, s.h, c));
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(Histogram, PackedBufferSourceAndBt601) {
  test::glContext();
  for (HistogramStrategy strategy : kStrategies) {
    HistogramParams p;
    p.strategy = strategy;
    p.source = ImageSource::kPackedBuffer;
    p.luma = LumaWeights::kBt601;
    p.bins = 255;
    p.channels = "lbgr";
    for (test::Size s : test::kSmallSizes)
      expectMatches(p, test::makeImage(s.w, s.h, Content::kRandom, 7),
                    test::describe(s.w, s.h, Content::kRandom));
  }
}

TEST(Histogram, PersistentShapes) {
  test::glContext();
  struct Shape {
    int groups, wg, ppi;
    bool atomics;
  };
  // wg 1 without atomics is llvmpipe's fastest; odd sizes and PPI catch tail handling.
  const Shape shapes[] = {
      {1, 1, 1, false}, {2, 1, 16, false}, {5, 48, 3, true}, {64, 256, 1, true}, {1, 16, 7, true}};
  for (const Shape& sh : shapes) {
    HistogramParams p;
    p.workgroups = sh.groups;
    p.workgroup_size = sh.wg;
    p.pixels_per_invocation = sh.ppi;
    p.shared_atomics = sh.atomics;
    for (test::Size s : {test::Size{127, 129}, test::Size{1, 1}, test::Size{257, 1}})
      expectMatches(p, test::makeImage(s.w, s.h, Content::kRandom, 3),
                    test::describe(s.w, s.h, Content::kRandom));
  }
}

TEST(Histogram, ReplicatedEveryParameter) {
  // Replica counts (1 has no padding, 3 and 7 odd, 7 the most that fits v3d's 32 KB), run
  // length on and off, quads per step (1, 3, 4) and sizes whose pixel count is no multiple of 4
  // (the tail), on both sources, every content.
  test::glContext();
  // batch: whole steps' loads first (packed buffer only; the texture source ignores it), with
  // steps that fit the image and a last one that does not.
  struct Shape {
    int groups, wg, ppi, replicas;
    bool rle, planar, batch;

    HistogramParams params(ImageSource source) const {
      return {.strategy = HistogramStrategy::kReplicated,
              .source = source,
              .workgroups = groups,
              .workgroup_size = wg,
              .pixels_per_invocation = ppi,
              .replicas = replicas,
              .run_length = rle,
              .planar = planar,
              .batch_loads = batch};
    }
  };
  const Shape shapes[] = {{3, 16, 4, 1, false, false, false}, {3, 64, 12, 3, true, false, false},
                          {1, 256, 16, 7, true, true, false}, {5, 48, 4, 2, true, false, false},
                          {2, 32, 8, 4, false, true, false},  {7, 16, 4, 5, true, true, false},
                          {64, 128, 4, 4, true, false, true}, {1, 16, 68, 2, true, false, true},
                          {3, 16, 4, 1, false, true, false},  {2, 64, 8, 4, false, true, true},
                          {3, 64, 12, 3, true, false, true},  {1, 16, 32, 4, false, false, true}};
  const test::Size sizes[] = {{1, 1}, {3, 1}, {5, 1}, {257, 3}, {3, 7}, {127, 129}, {1, 257}};
  for (const Shape& sh : shapes) {
    for (ImageSource src : {ImageSource::kPackedBuffer, ImageSource::kTexture}) {
      const HistogramParams p = sh.params(src);
      for (test::Size s : sizes)
        for (Content c : test::kAllContents)
          expectMatches(p, test::makeImage(s.w, s.h, c, uint32_t(s.w * 13 + s.h)),
                        test::describe(s.w, s.h, c));
      if (HasFatalFailure()) return;
    }
  }
  // 256 bins of 4 channels in other orders from the packed buffer (the shader's packed-word
  // path, which moves each byte to its word with a shift and a mask), BT.601 and BT.709.
  for (const char* channels : {"lbgr", "gblr"}) {
    HistogramParams p;
    p.strategy = HistogramStrategy::kReplicated;
    p.source = ImageSource::kPackedBuffer;
    p.channels = channels;
    p.run_length = false;
    p.workgroups = 3;
    p.workgroup_size = 64;
    for (LumaWeights luma : {LumaWeights::kBt601, LumaWeights::kBt709}) {
      p.luma = luma;
      for (test::Size s : {test::Size{257, 3}, test::Size{1, 1}, test::Size{127, 129}})
        for (Content c : test::kAllContents)
          expectMatches(p, test::makeImage(s.w, s.h, c, 11), test::describe(s.w, s.h, c));
    }
  }
  // Other bin counts and channel orders, BT.601.
  for (int bins : {1, 3, 255}) {
    HistogramParams p;
    p.strategy = HistogramStrategy::kReplicated;
    p.source = ImageSource::kPackedBuffer;
    p.bins = bins;
    p.channels = "lbg";
    p.luma = LumaWeights::kBt601;
    p.replicas = 3;
    for (bool planar : {false, true}) {
      p.planar = planar;
      for (test::Size s : {test::Size{257, 3}, test::Size{1, 1}})
        for (Content c : {Content::kRandom, Content::kGradient, Content::kFlat128})
          expectMatches(p, test::makeImage(s.w, s.h, c, 5), test::describe(s.w, s.h, c));
    }
  }
}

TEST(Histogram, ReplicatedLargeFramesAndLoopLimit) {
  GlContext& gl = test::glContext();
  HistogramParams p;
  p.strategy = HistogramStrategy::kReplicated;
  p.workgroups = 64;
  p.workgroup_size = 256;
  p.pixels_per_invocation = 8;
  p.replicas = 7;
  for (ImageSource src : {ImageSource::kPackedBuffer, ImageSource::kTexture}) {
    p.source = src;
    for (Content c : {Content::kRandom, Content::kFlat255, Content::kGradient})
      expectMatches(p, test::makeImage(1920, 1080, c, 21), test::describe(1920, 1080, c));
  }
  if (gl.isLlvmpipe()) {
    // One workgroup of 16 invocations, one quad a step, at 3840x2160: 2073600 quads / 16 =
    // 129600 steps per invocation, past llvmpipe's 65535: refused, not miscounted.
    p.workgroups = 1;
    p.workgroup_size = 16;
    p.pixels_per_invocation = 4;
    p.source = ImageSource::kPackedBuffer;
    expectRunRefused<PackedRgbaBuffer>(p, 3840, 2160,
                                       "histogram replicated: one invocation would run");
  }
}

TEST(Histogram, ReplicatedRefusesBadParameters) {
  GlContext& gl = test::glContext();
  HistogramParams p;
  p.strategy = HistogramStrategy::kReplicated;
  p.pixels_per_invocation = 6;
  test::expectRefusal(Histogram::create(gl, p), "multiple of 4");
  p.pixels_per_invocation = 4;
  p.replicas = 0;
  test::expectRefusal(Histogram::create(gl, p), "replicas must be in [1, 64]");
  // 8 padded replicas of rgbl x 256 bins: 8 * 1025 * 4 = 32800 bytes, over v3d's 32 KB.
  p.replicas = 8;
  EXPECT_EQ(p.sharedBytes(), 32800);
  test::expectRefusal(p.validate(test::v3dLimits()), "shared memory");
  p.replicas = 7;
  EXPECT_TRUE(p.validate(test::v3dLimits()).ok());
}

TEST(Histogram, ChunkTilesOfOtherShapes) {
  test::glContext();
  for (HistogramStrategy strategy : {HistogramStrategy::kChunkSum, HistogramStrategy::kChunkReduce,
                                     HistogramStrategy::kGlobalAtomic}) {
    HistogramParams p;
    p.strategy = strategy;
    p.tile_width = 16;
    p.tile_height = 16;
    p.sum_workgroup_size = 64;
    for (test::Size s : {test::Size{127, 129}, test::Size{3, 7}, test::Size{1, 257}})
      expectMatches(p, test::makeImage(s.w, s.h, Content::kGradient),
                    test::describe(s.w, s.h, Content::kGradient));
  }
}

TEST(Histogram, LargeFramesEveryStrategy) {
  GlContext& gl = test::glContext();
  for (HistogramStrategy strategy : kStrategies) {
    HistogramParams p;
    p.strategy = strategy;
    // llvmpipe silently ends an invocation's loops after 65535 iterations: one invocation
    // cannot walk these frames there, so the stage must refuse rather than miscount.
    if (strategy == HistogramStrategy::kSingle && gl.isLlvmpipe()) {
      // A driver limit, not a bad parameter: callers may pick another strategy.
      ASSERT_NO_FATAL_FAILURE(expectRunRefused<GpuImage>(
          p, 640, 480,
          "histogram single: one invocation would run 308704 loop iterations; llvmpipe stops "
          "every invocation after 65535"));
      continue;
    }
    for (test::Size s : test::kLargeSizes)
      for (Content c : {Content::kRandom, Content::kFlat255})
        expectMatches(p, test::makeImage(s.w, s.h, c, 11), test::describe(s.w, s.h, c));
  }
}

TEST(Histogram, OneInvocationPerWorkgroupOnAFullHdFrame) {
  // llvmpipe's fast shape: workgroups of one invocation, non-atomic shared counts. 64
  // workgroups x 16 pixels per step keeps each invocation under llvmpipe's loop limit.
  HistogramParams p;
  p.workgroups = 64;
  p.workgroup_size = 1;
  p.shared_atomics = false;
  p.pixels_per_invocation = 16;
  expectMatches(p, test::makeImage(1920, 1080, Content::kRandom, 12), "1920x1080 random");
  if (test::glContext().isLlvmpipe()) {
    p.workgroups = 1;  // 129600 steps: refused, not miscounted
    expectRunRefused<GpuImage>(p, 1920, 1080,
                               "raise workgroups * workgroup_size * pixels_per_invocation");
  }
}

TEST(Histogram, RefusesBadParameters) {
  GlContext& gl = test::glContext();
  auto error = [&](const HistogramParams& p) {
    Result<Histogram> h = Histogram::create(gl, p);
    EXPECT_FALSE(h.ok()) << describe(p);
    return h.ok() ? std::string() : h.error().message;
  };
  // The code callers branch on: a parameter out of range, or one past this driver's limits.
  auto code = [&](const HistogramParams& p) {
    Result<Histogram> h = Histogram::create(gl, p);
    return h.ok() ? std::string("ok") : std::string(errorCodeName(h.error().code));
  };
  const std::string invalid = errorCodeName(ErrorCode::kInvalidArgument);
  const std::string unsupported = errorCodeName(ErrorCode::kUnsupported);
  HistogramParams p;
  p.bins = 0;
  EXPECT_NE(error(p).find("bins must be in [1, 256], got 0"), std::string::npos);
  EXPECT_EQ(code(p), invalid);
  p.bins = 257;
  EXPECT_NE(error(p).find("got 257"), std::string::npos);
  EXPECT_EQ(code(p), invalid);
  p = HistogramParams{};
  p.channels = "rx";
  EXPECT_NE(error(p).find("'x' is not one of"), std::string::npos);
  EXPECT_EQ(code(p), invalid);
  p.channels = "rgr";
  EXPECT_NE(error(p).find("repeats"), std::string::npos);
  EXPECT_EQ(code(p), invalid);
  p = HistogramParams{};
  p.shared_atomics = false;
  EXPECT_NE(error(p).find("shared_atomics=false needs workgroup_size 1"), std::string::npos);
  EXPECT_EQ(code(p), invalid);
  p = HistogramParams{};
  p.workgroups = 65535;
  p.pixels_per_invocation = 256;
  EXPECT_NE(error(p).find("must stay below 2^31"), std::string::npos) << error(p);
  EXPECT_EQ(code(p), invalid);
  p = HistogramParams{};
  p.workgroup_size = gl.limits().work_group_invocations + 16;
  EXPECT_NE(error(p).find("GL_MAX_COMPUTE_WORK_GROUP"), std::string::npos) << error(p);
  EXPECT_EQ(code(p), unsupported);
  p = HistogramParams{};
  p.strategy = HistogramStrategy::kChunkSum;
  p.tile_width = 64;
  p.tile_height = 64;  // 4096 invocations
  EXPECT_NE(error(p).find("histogram chunk tile"), std::string::npos);
  EXPECT_EQ(code(p), unsupported);
  p = HistogramParams{};
  p.workgroup_size = 0;
  EXPECT_EQ(code(p), invalid) << error(p);
  for (const std::string& m : {error(p)}) EXPECT_EQ(m.find('\n'), std::string::npos);
}

TEST(Histogram, RefusesTheWrongSourceForm) {
  HistogramParams p;
  p.source = ImageSource::kPackedBuffer;
  Histogram* found = histogramFor(p);
  if (!found) return;  // refused beyond ESFRAME_GL_LIMITS=gles31-min, or already a failure
  Histogram& h = *found;
  Result<GpuImage> img = GpuImage::create(4, 4);
  ASSERT_TRUE(img.ok());
  Status s = h.run(img.value());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("packed buffer"), std::string::npos);
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument) << errorCodeName(s.error().code);
}

TEST(Histogram, DefaultsFitV3d) {
  HistogramParams p = HistogramParams::defaultsFor(test::glContext());
  EXPECT_LE(p.workgroup_size, 256);
  EXPECT_EQ(p.workgroup_size % 16, 0);
  EXPECT_LE(p.tile_width * p.tile_height, 256);
  EXPECT_EQ(p.tile_width * p.tile_height % 16, 0);
  EXPECT_LE(p.wordCount() * 4, 32u * 1024);
  EXPECT_EQ(p.pixels_per_invocation % 4, 0);
  const ComputeLimits v3d = test::v3dLimits();
  for (HistogramStrategy s : kStrategies) {
    p.strategy = s;
    EXPECT_TRUE(p.validate(v3d).ok()) << describe(p);
  }
}

}  // namespace
}  // namespace esf
