// Image reduce: per-channel min, max and 64-bit sum against the CPU reference.
#include <gtest/gtest.h>

#include <optional>
#include <span>
#include <string>
#include <utility>

#include "core/image/gpu_image.hpp"
#include "core/stages/reduce.hpp"
#include "core/stages/reduce_reference.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

using test::Content;

std::vector<ChannelReduce> runReduce(ImageReduce& r, const RgbaImage& image) {
  EXPECT_TRUE(r.poison(test::kPoison).ok());
  Status ran = Status::success();
  if (r.params().source == ImageSource::kTexture) {
    Result<GpuImage> gpu = GpuImage::fromImage(image);
    EXPECT_TRUE(gpu.ok());
    ran = r.run(gpu.value());
  } else {
    Result<PackedRgbaBuffer> gpu = PackedRgbaBuffer::fromImage(image);
    EXPECT_TRUE(gpu.ok());
    ran = r.run(gpu.value());
  }
  EXPECT_TRUE(ran.ok()) << ran.error().message;
  Result<std::vector<ChannelReduce>> got = r.read();
  EXPECT_TRUE(got.ok());
  return got.ok() ? got.value() : std::vector<ChannelReduce>{};
}

// The parameters the reduce tables vary, in their order; the source is given apart.
struct Config {
  const char* channels;
  int groups, wg, ppi = 4, accumulators = 0;
  bool batch = false;  // whole steps' loads first (packed buffer only)

  ReduceParams params(ImageSource source) const {
    return {.channels = channels,
            .source = source,
            .workgroups = groups,
            .workgroup_size = wg,
            .pixels_per_invocation = ppi,
            .accumulators = accumulators,
            .batch_loads = batch};
  }
};

// Every size in every content, seeded `seed(size)`, through `r` against the reference of `p`.
void expectMatchesReference(ImageReduce& r, const ReduceParams& p,
                            std::span<const test::Size> sizes, uint32_t (*seed)(test::Size),
                            const std::string& what) {
  for (test::Size s : sizes)
    for (Content content : test::kAllContents) {
      RgbaImage img = test::makeImage(s.w, s.h, content, seed(s));
      ASSERT_EQ(runReduce(r, img), reduceReference(img, p.channels, p.luma))
          << what << " " << test::describe(s.w, s.h, content);
    }
}

TEST(ReduceReference, HandComputed) {
  RgbaImage img(2, 1);
  uint8_t px[] = {10, 20, 30, 0, 250, 0, 7, 0};
  std::copy(std::begin(px), std::end(px), img.pixels.begin());
  std::vector<ChannelReduce> r = reduceReference(img, "rgb", LumaWeights::kBt709);
  EXPECT_EQ(r[0], (ChannelReduce{10, 250, 260}));
  EXPECT_EQ(r[1], (ChannelReduce{0, 20, 20}));
  EXPECT_EQ(r[2], (ChannelReduce{7, 30, 37}));
}

// One odd frame through each source and form of the reduce shader (partials, atomic
// accumulators, batched loads): the smoke that the ASan and qemu-user runs keep when they leave
// out the matrices below.
TEST(Reduce, SmokeEveryFormOnAnOddFrame) {
  GlContext& gl = test::glContext();
  const std::pair<ImageSource, Config> configs[] = {
      {ImageSource::kTexture, {"rgbl", 16, 256, 4, 0, false}},
      {ImageSource::kPackedBuffer, {"lg", 3, 48, 12, 4, false}},
      {ImageSource::kPackedBuffer, {"rgbl", 3, 16, 64, 0, true}}};
  const RgbaImage img = test::makeImage(257, 3, Content::kRandom, 31);
  for (const auto& [source, c] : configs) {
    const ReduceParams p = c.params(source);
    std::optional<ImageReduce> r = test::createStage<ImageReduce>(gl, p, p.channels);
    if (!r) continue;
    EXPECT_EQ(runReduce(*r, img), reduceReference(img, p.channels, p.luma))
        << c.channels << " " << imageSourceName(source) << " acc " << c.accumulators
        << (c.batch ? " batched" : "");
  }
}

TEST(Reduce, MatchesReferenceAcrossSizesContentsAndShapes) {
  GlContext& gl = test::glContext();
  const std::pair<ImageSource, Config> configs[] = {{ImageSource::kTexture, {"rgbl", 16, 256}},
                                                    {ImageSource::kPackedBuffer, {"lg", 3, 48}},
                                                    {ImageSource::kTexture, {"b", 40, 1}}};
  for (const auto& [source, c] : configs) {
    const ReduceParams p = c.params(source);
    std::optional<ImageReduce> r = test::createStage<ImageReduce>(gl, p, p.channels);
    if (!r) continue;
    ASSERT_NO_FATAL_FAILURE(expectMatchesReference(
        *r, p, test::kSmallSizes, [](test::Size) { return 4u; }, c.channels));
    RgbaImage big = test::makeImage(1920, 1080, Content::kRandom, 4);
    ASSERT_EQ(runReduce(*r, big), reduceReference(big, p.channels, p.luma));
  }
}

TEST(Reduce, SumsPastTwoToThe32AreExact) {
  // 4096 x 4200 white pixels: each channel sums to 255 * 17203200 = 4386816000 > 2^32, so the
  // shared and the output sums must carry. (An invocation's private sum cannot pass 2^32 on
  // llvmpipe: its loop limit of 65535 iterations comes first.)
  GlContext& gl = test::glContext();
  RgbaImage img = test::makeImage(4096, 4200, Content::kFlat255);
  for (int wg : {1, 256, 64}) {
    ReduceParams p;
    p.channels = "rl";
    p.source = ImageSource::kPackedBuffer;
    p.workgroups = wg == 1 ? 300 : 8;
    p.workgroup_size = wg;
    p.accumulators = wg == 64 ? 3 : 0;  // the carry through the accumulators' atomics
    std::optional<ImageReduce> r = test::createStage<ImageReduce>(gl, p, p.channels);
    if (!r) continue;
    std::vector<ChannelReduce> got = runReduce(*r, img);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0], (ChannelReduce{255, 255, 4386816000ull})) << "workgroup size " << wg;
    EXPECT_EQ(got[1], (ChannelReduce{255, 255, 4386816000ull})) << "workgroup size " << wg;
  }
}

TEST(Reduce, QuadsPerStepSourcesAndOddShapes) {
  // Every new parameter: quads per step 1, 3, 4 and 17 (not unrolled), workgroup sizes that are
  // no power of two (the tree's odd tail), both sources, sizes whose pixel count is no
  // multiple of 4, every content; subgroups where the context has them.
  GlContext& gl = test::glContext();
  // accumulators: 0 = partials, 1, 4, 16 and 64 atomic accumulators (64 > groups: some unused).
  const Config configs[] = {
      {"rgbl", 7, 48, 4, 0, false},  {"lbg", 1, 256, 12, 4, false},  {"r", 3, 16, 16, 16, false},
      {"gl", 64, 512, 68, 1, false}, {"rgbl", 2, 100, 8, 64, false}, {"rgbl", 33, 64, 8, 4, false},
      {"rgbl", 3, 16, 64, 0, true},  {"lbg", 1, 48, 12, 4, true},    {"rgbl", 33, 64, 8, 4, true}};
  const test::Size sizes[] = {{1, 1}, {3, 1}, {257, 3}, {3, 7}, {127, 129}, {1, 257}};
  std::vector<bool> subgroup_forms = {false};
  if (ReduceParams::subgroupsAvailable()) subgroup_forms.push_back(true);
  for (bool sub : subgroup_forms)
    for (const Config& c : configs)
      for (ImageSource src : {ImageSource::kPackedBuffer, ImageSource::kTexture}) {
        ReduceParams p = c.params(src);
        p.workgroup_size = std::min(c.wg, gl.limits().work_group_invocations);
        p.subgroups = sub;
        p.luma = c.ppi == 12 ? LumaWeights::kBt601 : LumaWeights::kBt709;
        std::optional<ImageReduce> r = test::createStage<ImageReduce>(gl, p, p.channels);
        if (!r) continue;
        ASSERT_NO_FATAL_FAILURE(expectMatchesReference(
            *r, p, sizes, [](test::Size s) { return uint32_t(s.w + 5 * s.h); },
            std::string(c.channels) + " wg " + std::to_string(p.workgroup_size) + " ppi " +
                std::to_string(c.ppi) + " acc " + std::to_string(c.accumulators) +
                (c.batch ? " batched " : " ") + imageSourceName(src) + (sub ? " subgroups" : "")));
        RgbaImage big = test::makeImage(1920, 1080, Content::kGradient, 9);
        ASSERT_EQ(runReduce(*r, big), reduceReference(big, p.channels, p.luma));
      }
}

TEST(Reduce, RefusesSubgroupsWhereMissingAndBadPixelsPerInvocation) {
  GlContext& gl = test::glContext();
  ReduceParams p;
  p.workgroup_size = 64;  // within every limit (ESFRAME_GL_LIMITS=gles31-min too): not the point
  p.pixels_per_invocation = 6;
  test::expectRefusal(ImageReduce::create(gl, p), "multiple of 4");
  p.pixels_per_invocation = 4;
  p.subgroups = true;
  Result<ImageReduce> r = ImageReduce::create(gl, p);
  if (ReduceParams::subgroupsAvailable()) {
    EXPECT_TRUE(r.ok()) << r.error().message;
  } else {
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("GL_KHR_shader_subgroup_arithmetic"), std::string::npos);
  }
}

TEST(Reduce, DefaultsFitV3d) {
  ReduceParams p = ReduceParams::defaultsFor(test::glContext());
  EXPECT_LE(p.workgroup_size, 256);
  EXPECT_EQ(p.workgroup_size % 16, 0);
  EXPECT_TRUE(p.validate(test::v3dLimits()).ok());
}

TEST(Reduce, RefusesBadParameters) {
  ReduceParams p;
  p.channels = "";
  Result<ImageReduce> r = ImageReduce::create(test::glContext(), p);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("reduce: channels"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument) << errorCodeName(r.error().code);
  p = ReduceParams{};
  p.workgroups = 0;
  r = ImageReduce::create(test::glContext(), p);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("workgroups"), std::string::npos);
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument) << errorCodeName(r.error().code);
  if (test::glContext().isLlvmpipe()) {
    // One invocation over a full-HD frame passes llvmpipe's loop limit: refused, not wrong.
    p = ReduceParams{};
    p.workgroups = 1;
    p.workgroup_size = 1;
    r = ImageReduce::create(test::glContext(), p);
    ASSERT_TRUE(r.ok());
    Result<GpuImage> img = GpuImage::create(1920, 1080);
    ASSERT_TRUE(img.ok());
    Status s = r->run(img.value());
    // 518400 quads of 4 pixels, one per step, + 3 for the tail + 4 (the tree's channel loop)
    // + the finish: 4 x (1 partial + 1) + 4 + 8 (the accumulators' loops, counted always).
    test::expectRefusal(s, "reduce: one invocation would run 518427 loop iterations");
    EXPECT_EQ(s.error().code, ErrorCode::kUnsupported) << errorCodeName(s.error().code);
  }
}

}  // namespace
}  // namespace esf
