// Tiled separable box blur against the CPU reference, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/image/gpu_image.hpp"
#include "core/stages/blur.hpp"
#include "core/stages/blur_reference.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

using test::Content;

RgbaImage runBlur(Blur& blur, const RgbaImage& in) {
  return test::runImageStage(in, in.width, in.height, [&](const GpuImage& src, GpuImage& dst) {
    return blur.run(src, dst);
  });
}

// The packed forms: `in` from an image (from_image) or a packed buffer into a packed buffer
// poisoned first, so a texel the blur never wrote shows.
RgbaImage runPackedBlur(Blur& blur, const RgbaImage& in, bool from_image) {
  RgbaImage poison(in.width, in.height);
  std::fill(poison.pixels.begin(), poison.pixels.end(), uint8_t(0xA5));
  Result<PackedRgbaBuffer> out = PackedRgbaBuffer::fromImage(poison);
  EXPECT_TRUE(out.ok());
  if (!out) return poison;
  Status s;
  if (from_image) {
    Result<GpuImage> src = GpuImage::fromImage(in);
    EXPECT_TRUE(src.ok());
    if (!src) return poison;
    s = blur.run(src.value(), out.value());
  } else {
    Result<PackedRgbaBuffer> src = PackedRgbaBuffer::fromImage(in);
    EXPECT_TRUE(src.ok());
    if (!src) return poison;
    s = blur.run(src.value(), out.value());
  }
  EXPECT_TRUE(s.ok()) << s.error().message;
  Result<RgbaImage> got = out.value().download();
  EXPECT_TRUE(got.ok());
  return got ? got.value() : poison;
}

std::optional<Blur> createBlur(GlContext& gl, const BlurParams& p) {
  return test::createStage<Blur>(gl, p, blurStrategyName(p.strategy));
}

const test::Size kOddSizes[] = {{1, 1}, {257, 3}, {3, 7}, {127, 129}, {130, 5}, {2, 131}};
const Content kRandomAndGradient[] = {Content::kRandom, Content::kGradient};
const Content kRandomOnly[] = {Content::kRandom};

// Every size and content (seeded `seed`) through `blur`, made from `p`, against the reference;
// through a buffer, the packed forms too: image in and buffer in, a packed buffer out.
void expectMatchesReference(Blur& blur, const BlurParams& p, std::span<const test::Size> sizes,
                            std::span<const Content> contents, uint32_t seed,
                            const std::string& what) {
  for (test::Size s : sizes)
    for (Content c : contents) {
      const RgbaImage in = test::makeImage(s.w, s.h, c, seed);
      const RgbaImage want = blurReference(in, p.filter_dim, p.iterations);
      ASSERT_EQ(runBlur(blur, in), want) << what << " " << test::describe(s.w, s.h, c);
      if (!p.buffer_intermediate) continue;
      for (bool from_image : {true, false})
        ASSERT_EQ(runPackedBlur(blur, in, from_image), want)
            << what << (from_image ? " image" : " buffer") << " -> buffer "
            << test::describe(s.w, s.h, c);
    }
}

// The 1920x1080 frame in each of `contents` (seeded `seed`) through the blur of `p`. False where
// the context refused the parameters (the test skips the rest) or the check failed fatally.
bool fullHdMatches(GlContext& gl, const BlurParams& p, std::span<const Content> contents,
                   uint32_t seed) {
  std::optional<Blur> blur = createBlur(gl, p);
  if (!blur) return false;
  const test::Size full_hd[] = {{1920, 1080}};
  expectMatchesReference(*blur, p, full_hd, contents, seed, blurStrategyName(p.strategy));
  return !::testing::Test::HasFatalFailure();
}

// A shape meant for a Raspberry Pi: within v3d's limits, and exact at full HD, random and
// gradient. False as fullHdMatches.
bool fitsV3dAndMatchesFullHd(GlContext& gl, const BlurParams& p, uint32_t seed) {
  EXPECT_TRUE(p.validate(test::v3dLimits()).ok())
      << blurStrategyName(p.strategy) << " " << p.tile_width << "x" << p.tile_rows << " segment "
      << p.segment << " wg " << p.workgroup_size << " must fit v3d";
  return fullHdMatches(gl, p, kRandomAndGradient, seed);
}

// The parameters the strategy tests vary, in the order their tables list them (tile, segment,
// workgroup, filter, iterations, prefetch; the packed buffer, its column and row quads).
struct Shape {
  int tw, th, segment, wg, filter, iterations, prefetch = 1;
  bool buffer = false, quads = false, rows = false;

  BlurParams params(BlurStrategy strategy) const {
    return {.strategy = strategy,
            .filter_dim = filter,
            .iterations = iterations,
            .tile_width = tw,
            .tile_rows = th,
            .workgroup_size = wg,
            .segment = segment,
            .prefetch = prefetch,
            .buffer_intermediate = buffer,
            .column_quads = quads,
            .row_quads = rows};
  }
  std::string describe(BlurStrategy strategy) const {
    return std::string(blurStrategyName(strategy)) + " " + std::to_string(tw) + "x" +
           std::to_string(th) + " seg " + std::to_string(segment) + " wg " + std::to_string(wg) +
           " filter " + std::to_string(filter) + " x" + std::to_string(iterations) + " prefetch " +
           std::to_string(prefetch) + (buffer ? " through a buffer" : "") +
           (quads ? " quads" : "") + (rows ? " row-quads" : "");
  }
};

// Each shape of `strategy` against the reference on every size and content, its frames seeded
// by `seed(shape)`.
void expectEveryShapeMatches(GlContext& gl, BlurStrategy strategy, std::span<const Shape> shapes,
                             std::span<const test::Size> sizes, uint32_t (*seed)(const Shape&)) {
  for (const Shape& sh : shapes) {
    const BlurParams p = sh.params(strategy);
    std::optional<Blur> blur = createBlur(gl, p);
    if (!blur) continue;
    ASSERT_NO_FATAL_FAILURE(expectMatchesReference(*blur, p, sizes, test::kAllContents, seed(sh),
                                                   sh.describe(strategy)));
  }
}

// The matrix of a strategy whose first shape is meant for a Raspberry Pi: every shape on the
// odd sizes, then the first within v3d's limits and exact at full HD (seeded `full_hd_seed`).
// False where the context refused that shape or a check failed fatally.
bool expectEveryShapeAndThePiShapeMatch(GlContext& gl, BlurStrategy strategy,
                                        std::span<const Shape> shapes,
                                        uint32_t (*seed)(const Shape&), uint32_t full_hd_seed) {
  expectEveryShapeMatches(gl, strategy, shapes, kOddSizes, seed);
  if (::testing::Test::HasFatalFailure()) return false;
  return fitsV3dAndMatchesFullHd(gl, shapes[0].params(strategy), full_hd_seed);
}

TEST(BlurReference, HandExample) {
  // 3 taps along a 4-pixel row 0 30 60 90, clamped: (0+0+30+1)/3=10, (0+30+60+1)/3=30, 60,
  // (60+90+90+1)/3=80; then the vertical pass of a 1-row image keeps them. Alpha carried.
  RgbaImage in(4, 1);
  for (int x = 0; x < 4; ++x) {
    uint8_t* p = in.at(x, 0);
    p[0] = p[1] = p[2] = uint8_t(30 * x);
    p[3] = uint8_t(x + 1);
  }
  RgbaImage out = blurReference(in, 3, 1);
  EXPECT_EQ(out.at(0, 0)[0], 10);
  EXPECT_EQ(out.at(1, 0)[1], 30);
  EXPECT_EQ(out.at(2, 0)[2], 60);
  EXPECT_EQ(out.at(3, 0)[0], 80);
  EXPECT_EQ(out.at(3, 0)[3], 4);
  EXPECT_EQ(blurReference(in, 1, 3), in);  // one tap is the identity
}

// One odd frame through every strategy and shader of the blur family (tiled, sliding, fused,
// split with and without the packed buffer, its column and row quads, stream): the smoke that the
// ASan and qemu-user runs keep when they leave out the parameter matrices below.
TEST(Blur, SmokeEveryShaderOnAnOddFrame) {
  GlContext& gl = test::glContext();
  struct Shape {
    BlurStrategy strategy;
    int tw, th, segment, wg;
    bool buffer = false, quads = false, rows = false;
  };
  const Shape shapes[] = {{BlurStrategy::kTiled, 128, 4, 64, 32},
                          {BlurStrategy::kSliding, 128, 4, 7, 16},
                          {BlurStrategy::kFused, 64, 32, 16, 256},
                          {BlurStrategy::kSplit, 64, 4, 16, 256},
                          {BlurStrategy::kSplit, 64, 16, 16, 256, true, true, true},
                          {BlurStrategy::kStream, 128, 64, 4, 64}};
  const test::Size odd_frame[] = {{132, 37}};
  for (const Shape& sh : shapes) {
    const BlurParams p{.strategy = sh.strategy,
                       .filter_dim = 5,
                       .iterations = 2,
                       .tile_width = sh.tw,
                       .tile_rows = sh.th,
                       .workgroup_size = sh.wg,
                       .segment = sh.segment,
                       .buffer_intermediate = sh.buffer,
                       .column_quads = sh.quads,
                       .row_quads = sh.rows};
    std::optional<Blur> blur = createBlur(gl, p);
    if (!blur) continue;
    EXPECT_NO_FATAL_FAILURE(expectMatchesReference(*blur, p, odd_frame, kRandomOnly, 29,
                                                   blurStrategyName(sh.strategy)));
  }
}

TEST(Blur, MatchesReferenceForEveryFilterAndIterationCount) {
  GlContext& gl = test::glContext();
  const int max_dim = BlurParams{}.maxFilterDim();
  ASSERT_EQ(max_dim, 127);
  // Smaller than a tile, and not multiples of the 128-wide tile or its 4 rows.
  const test::Size sizes[] = {{1, 1}, {3, 7}, {127, 129}, {130, 5}, {2, 131}};
  for (int filter : {1, 3, 15, 33, max_dim}) {
    std::vector<Blur> blurs;  // iterations 1, 2, 3
    for (int iterations : {1, 2, 3}) {
      BlurParams p;
      p.filter_dim = filter;
      p.iterations = iterations;
      Result<Blur> blur = Blur::create(gl, p);
      if (test::refusedForSpecMinimums(p.validate(gl.limits()), blur)) continue;
      ASSERT_TRUE(blur.ok()) << blur.error().message;
      blurs.push_back(std::move(blur.value()));
    }
    for (test::Size s : sizes)
      for (Content c : {Content::kRandom, Content::kGradient, Content::kFlat255}) {
        RgbaImage in = test::makeImage(s.w, s.h, c, uint32_t(filter));
        RgbaImage want = in;
        for (int iterations = 1; iterations <= 3; ++iterations) {
          want = blurReference(want, filter, 1);  // iteration k = one more on iteration k-1
          ASSERT_EQ(runBlur(blurs[size_t(iterations - 1)], in), want)
              << "filter " << filter << " x" << iterations << " " << test::describe(s.w, s.h, c);
        }
      }
  }
}

TEST(Blur, OtherTileShapesAndALargeFrame) {
  GlContext& gl = test::glContext();
  struct Shape {
    int tile_width, rows, wg, filter;
  };
  const Shape shapes[] = {{64, 2, 16, 9}, {256, 8, 64, 31}, {128, 4, 128, 5}, {32, 1, 32, 31}};
  for (const Shape& sh : shapes) {
    const BlurParams p{.filter_dim = sh.filter,
                       .iterations = 2,
                       .tile_width = sh.tile_width,
                       .tile_rows = sh.rows,
                       .workgroup_size = sh.wg};
    std::optional<Blur> blur = createBlur(gl, p);
    if (!blur) continue;
    RgbaImage in = test::makeImage(261, 67, Content::kRandom, 12);
    ASSERT_EQ(runBlur(*blur, in), blurReference(in, p.filter_dim, p.iterations))
        << "tile " << sh.tile_width << "x" << sh.rows << " wg " << sh.wg;
  }
  Result<Blur> blur = Blur::create(gl, BlurParams::defaultsFor(gl));
  ASSERT_TRUE(blur.ok());
  RgbaImage in = test::makeImage(640, 480, Content::kRandom, 13);
  ASSERT_EQ(runBlur(blur.value(), in), blurReference(in, 15, 2));
}

TEST(Blur, SlidingMatchesReferenceForEveryParameter) {
  // Segments shorter and longer than the filter, than the image and not dividing it; lines
  // per workgroup not dividing the height; filters wider than the image (every tap clamps).
  // Taps read ahead (prefetch) more than the segment, not dividing it, and up to the limit.
  // The tile is the default's: the sliding strategy has none.
  const Shape shapes[] = {
      {128, 4, 1, 16, 3, 1, 1},    {128, 4, 7, 16, 15, 2, 1},    {128, 4, 64, 64, 15, 1, 1},
      {128, 4, 5, 48, 1, 1, 1},    {128, 4, 300, 32, 31, 2, 1},  {128, 4, 16, 256, 255, 1, 1},
      {128, 4, 64, 16, 127, 3, 1}, {128, 4, 1, 16, 3, 1, 4},     {128, 4, 7, 16, 15, 2, 4},
      {128, 4, 64, 64, 15, 1, 8},  {128, 4, 300, 32, 31, 2, 16}, {128, 4, 13, 32, 1, 1, 3},
      {128, 4, 16, 256, 255, 1, 8}};
  ASSERT_NO_FATAL_FAILURE(expectEveryShapeMatches(
      test::glContext(), BlurStrategy::kSliding, shapes, kOddSizes,
      [](const Shape& sh) { return uint32_t(sh.segment * 7 + sh.filter); }));
  const BlurParams p{.strategy = BlurStrategy::kSliding, .filter_dim = 15, .iterations = 1};
  fullHdMatches(test::glContext(), p, kRandomAndGradient, 14);
}

TEST(Blur, FusedMatchesReferenceForEveryParameter) {
  // Tiles that do not divide the image, halos wider than the tile and than the image,
  // segments longer than the tile, workgroups smaller and larger than the tile's work, and
  // 1-3 iterations (the ping-pong between out and the temporary image). The first: a Pi's.
  GlContext& gl = test::glContext();
  const Shape shapes[] = {{64, 32, 16, 256, 15, 1}, {32, 16, 8, 128, 15, 2}, {7, 5, 3, 16, 3, 3},
                          {16, 16, 64, 64, 31, 1},  {1, 1, 1, 16, 1, 2},     {24, 8, 5, 96, 61, 1},
                          {128, 4, 16, 256, 9, 2}};
  const auto seed = [](const Shape& sh) { return uint32_t(sh.tw * 7 + sh.filter); };
  if (!expectEveryShapeAndThePiShapeMatch(gl, BlurStrategy::kFused, shapes, seed, 15)) return;
  // Too much shared memory: refused with the driver's limit named.
  BlurParams p = shapes[0].params(BlurStrategy::kFused);
  p.tile_width = 1024;
  p.tile_rows = 64;
  test::expectRefusal(Blur::create(gl, p), "GL_MAX_COMPUTE_SHARED_MEMORY_SIZE");
}

TEST(Blur, SplitMatchesReferenceForEveryParameter) {
  // The tiled horizontal pass without a vertical halo, then the sliding vertical pass.
  GlContext& gl = test::glContext();
  // buffer: the packed buffer between the passes (buffer_intermediate, blur_columns.comp);
  // quads: its vertical pass 4 columns per invocation (widths that are multiples of 4);
  // rows: its horizontal pass 4 pixels per invocation from registers (row_quads, likewise).
  const Shape shapes[] = {
      {64, 4, 16, 256, 15, 1, 1, false, false},      {7, 3, 5, 16, 3, 2, 1, false, false},
      {128, 16, 32, 128, 31, 3, 1, false, false},    {1, 1, 1, 16, 1, 1, 1, false, false},
      {16, 2, 64, 64, 61, 1, 1, false, false},       {64, 16, 16, 256, 15, 1, 8, false, false},
      {7, 3, 5, 16, 3, 2, 4, false, false},          {256, 4, 32, 256, 31, 2, 16, false, false},
      {64, 4, 16, 256, 15, 1, 1, true, false},       {7, 3, 5, 16, 3, 3, 1, true, false},
      {16, 2, 64, 64, 257, 1, 1, true, false},       {1, 1, 1, 16, 1, 2, 1, true, false},
      {64, 4, 16, 256, 15, 1, 1, true, true},        {7, 3, 5, 16, 3, 3, 1, true, true},
      {16, 2, 64, 64, 257, 1, 1, true, true},        {1, 1, 1, 16, 1, 2, 1, true, true},
      {64, 4, 16, 256, 15, 1, 8, true, false},       {7, 3, 5, 16, 3, 3, 4, true, true},
      {16, 2, 9, 64, 31, 2, 16, true, false},        {64, 16, 8, 64, 15, 1, 1, true, false, true},
      {64, 16, 16, 256, 15, 2, 8, true, true, true}, {7, 3, 5, 16, 1, 1, 3, true, false, true},
      {7, 3, 5, 16, 3, 3, 1, true, true, true},      {16, 2, 64, 64, 257, 1, 1, true, false, true},
      {16, 2, 13, 128, 29, 1, 5, true, true, true}};
  // Widths of 4 and 132: the quad form; the others fall back to one column per invocation.
  const test::Size sizes[] = {{1, 1},   {257, 3}, {3, 7}, {127, 129},
                              {130, 5}, {2, 131}, {4, 1}, {132, 7}};
  ASSERT_NO_FATAL_FAILURE(
      expectEveryShapeMatches(gl, BlurStrategy::kSplit, shapes, sizes,
                              [](const Shape& sh) { return uint32_t(sh.tw * 3 + sh.filter); }));
  BlurParams p = Shape{128, 4, 16, 256, 15, 1}.params(BlurStrategy::kSplit);
  if (!fullHdMatches(gl, p, kRandomOnly, 16)) return;
  const RgbaImage in = test::makeImage(1920, 1080, Content::kRandom, 16);
  const RgbaImage want = blurReference(in, 15, 1);
  p.buffer_intermediate = true;
  std::optional<Blur> through_buffer = createBlur(gl, p);
  if (!through_buffer) return;
  ASSERT_EQ(runBlur(*through_buffer, in), want);
  ASSERT_EQ(runPackedBlur(*through_buffer, in, false), want);
  // Column quads, then row quads as well with rows read ahead.
  for (bool row_quads : {false, true}) {
    BlurParams f = p;
    f.column_quads = true;
    f.row_quads = row_quads;
    f.prefetch = row_quads ? 4 : 1;
    const char* what = row_quads ? "column and row quads" : "column quads";
    Result<Blur> b = Blur::create(gl, f);
    ASSERT_TRUE(b.ok()) << what;
    ASSERT_EQ(runBlur(b.value(), in), want) << what;
    ASSERT_EQ(runPackedBlur(b.value(), in, false), want) << what;
  }
  // The packed forms check their buffers: the same one twice, and a size that differs.
  Result<PackedRgbaBuffer> a = PackedRgbaBuffer::create(5, 3), b = PackedRgbaBuffer::create(3, 5);
  ASSERT_TRUE(a.ok() && b.ok());
  test::expectRefusal(through_buffer->run(a.value(), a.value()), "same buffer");
  test::expectRefusal(through_buffer->run(a.value(), b.value()), "output is 3x5, input 5x3");
  // Only split through a buffer has them: through an image it is refused, naming why.
  p.buffer_intermediate = false;
  std::optional<Blur> through_image = createBlur(gl, p);
  if (!through_image) return;
  test::expectRefusal(through_image->run(a.value(), b.value()), "split strategy through a buffer");
  p.buffer_intermediate = true;
  // The 16-bit lanes hold 257 taps of 255 and no more; other strategies refuse the parameter.
  p.filter_dim = 259;
  test::expectRefusal(Blur::create(gl, p), "[1, 257]");
  p.filter_dim = 15;
  p.strategy = BlurStrategy::kSliding;
  test::expectRefusal(Blur::create(gl, p), "split strategy only");
  // The horizontal pass from registers writes the buffer between the passes: none, refused.
  p.strategy = BlurStrategy::kSplit;
  p.buffer_intermediate = false;
  p.row_quads = true;
  test::expectRefusal(Blur::create(gl, p), "row_quads");
}

TEST(Blur, StreamMatchesReferenceForEveryParameter) {
  // One dispatch streaming down the rows: tiles that do not divide the image, halos wider than
  // the tile and the image, 1-16 columns per invocation (the segment), rows per workgroup (the
  // tile's rows) from 1 up past the image, a 129-tap filter (257, the lanes' limit, needs more
  // loop iterations than llvmpipe runs), and 1-3 iterations. The tile width is the default's;
  // the first shape, a Pi's.
  GlContext& gl = test::glContext();
  const Shape shapes[] = {{128, 64, 4, 64, 15, 1}, {128, 16, 2, 128, 15, 2},
                          {128, 5, 3, 16, 3, 3},   {128, 1, 1, 16, 1, 2},
                          {128, 7, 16, 4, 61, 1},  {128, 40, 1, 16, 129, 1},
                          {128, 32, 8, 32, 9, 2}};
  const auto seed = [](const Shape& sh) { return uint32_t(sh.th * 5 + sh.filter); };
  if (!expectEveryShapeAndThePiShapeMatch(gl, BlurStrategy::kStream, shapes, seed, 15)) return;
  // Past the 16-bit lanes, and a ring past the shared memory: refused, naming why.
  BlurParams p = shapes[0].params(BlurStrategy::kStream);
  p.filter_dim = 259;
  test::expectRefusal(Blur::create(gl, p), "[1, 257]");
  p.filter_dim = 15;
  p.segment = 16;
  p.workgroup_size = 256;
  test::expectRefusal(Blur::create(gl, p), "GL_MAX_COMPUTE_SHARED_MEMORY_SIZE");
  EXPECT_EQ(parseBlurStrategy("stream").value(), BlurStrategy::kStream);
}

TEST(Blur, SlidingRefusesBadParameters) {
  GlContext& gl = test::glContext();
  BlurParams p;
  p.strategy = BlurStrategy::kSliding;
  p.filter_dim = 14;
  test::expectRefusal(Blur::create(gl, p), "half a pixel");
  p.filter_dim = 1025;
  test::expectRefusal(Blur::create(gl, p), "[1, 1023]");
  p.filter_dim = 15;
  p.segment = 0;
  test::expectRefusal(Blur::create(gl, p), "segment must be in [1, 4096]");
  p.segment = 64;
  p.prefetch = 17;
  test::expectRefusal(Blur::create(gl, p), "prefetch must be in [1, 16]");
  p.prefetch = 1;
  p.segment = 4096;
  p.filter_dim = 1023;  // 5121 loop iterations: fine; a longer loop is refused on llvmpipe
  EXPECT_TRUE(Blur::create(gl, p).ok());
  p.workgroup_size = gl.limits().work_group_invocations + 16;
  test::expectRefusal(Blur::create(gl, p), "blur sliding");
  EXPECT_EQ(parseBlurStrategy("sliding").value(), BlurStrategy::kSliding);
  EXPECT_FALSE(parseBlurStrategy("fast").ok());
}

TEST(Blur, DefaultsFitV3d) {
  BlurParams p = BlurParams::defaultsFor(test::glContext());
  EXPECT_LE(p.workgroup_size, 256);
  EXPECT_EQ(p.workgroup_size % 16, 0);
  EXPECT_LE(p.tile_rows * p.tile_width * 4, 32 * 1024);
  EXPECT_TRUE(p.validate(test::v3dLimits()).ok());
  EXPECT_EQ(p.tile_width, 128);  // the seed's tile: 4 rows x 128, 32 invocations
  EXPECT_EQ(p.tile_rows, 4);
  EXPECT_EQ(p.workgroup_size, 32);
}

TEST(Blur, RefusesEvenOversizedAndMisfitParameters) {
  GlContext& gl = test::glContext();
  auto error = [&](const BlurParams& p) {
    Result<Blur> b = Blur::create(gl, p);
    EXPECT_FALSE(b.ok());
    return b.ok() ? std::string() : b.error().message;
  };
  BlurParams p;
  p.filter_dim = 16;
  EXPECT_NE(error(p).find("half a pixel"), std::string::npos) << error(p);
  p.filter_dim = 129;
  EXPECT_NE(error(p).find("must be odd and in [1, 127]"), std::string::npos) << error(p);
  p = BlurParams{};
  p.workgroup_size = 48;
  EXPECT_NE(error(p).find("must divide tile_width"), std::string::npos);
  p = BlurParams{};
  p.tile_width = 4096;
  p.tile_rows = 8;  // 128 KB of shared memory
  p.workgroup_size = 128;
  EXPECT_NE(error(p).find("GL_MAX_COMPUTE_SHARED_MEMORY_SIZE"), std::string::npos) << error(p);
  Result<Blur> ok = Blur::create(gl, BlurParams{});
  ASSERT_TRUE(ok.ok());
  Result<GpuImage> a = GpuImage::create(8, 8), b = GpuImage::create(9, 8);
  test::expectRefusal(ok->run(a.value(), b.value()), "blur: output is 9x8, input 8x8");
}

}  // namespace
}  // namespace esf
