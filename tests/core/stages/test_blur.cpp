// Tiled separable box blur against the CPU reference, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
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
  const RgbaImage in = test::makeImage(132, 37, Content::kRandom, 29);
  const RgbaImage want = blurReference(in, 5, 2);
  for (const Shape& sh : shapes) {
    BlurParams p;
    p.strategy = sh.strategy;
    p.tile_width = sh.tw;
    p.tile_rows = sh.th;
    p.segment = sh.segment;
    p.workgroup_size = sh.wg;
    p.filter_dim = 5;
    p.iterations = 2;
    p.buffer_intermediate = sh.buffer;
    p.column_quads = sh.quads;
    p.row_quads = sh.rows;
    Result<Blur> blur = Blur::create(gl, p);
    if (test::refusedForSpecMinimums(p.validate(gl.limits()), blur)) continue;
    ASSERT_TRUE(blur.ok()) << blurStrategyName(sh.strategy) << ": " << blur.error().message;
    EXPECT_EQ(runBlur(blur.value(), in), want) << blurStrategyName(sh.strategy);
    if (!sh.buffer) continue;
    for (bool from_image : {true, false}) {
      EXPECT_EQ(runPackedBlur(blur.value(), in, from_image), want)
          << "split through a buffer, packed from " << (from_image ? "an image" : "a buffer");
    }
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
    BlurParams p;
    p.tile_width = sh.tile_width;
    p.tile_rows = sh.rows;
    p.workgroup_size = sh.wg;
    p.filter_dim = sh.filter;
    p.iterations = 2;
    Result<Blur> blur = Blur::create(gl, p);
    if (test::refusedForSpecMinimums(p.validate(gl.limits()), blur)) continue;
    ASSERT_TRUE(blur.ok()) << blur.error().message;
    RgbaImage in = test::makeImage(261, 67, Content::kRandom, 12);
    ASSERT_EQ(runBlur(blur.value(), in), blurReference(in, p.filter_dim, p.iterations))
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
  GlContext& gl = test::glContext();
  // Taps read ahead (prefetch) more than the segment, not dividing it, and up to the limit.
  struct Shape {
    int segment, wg, filter, iterations, prefetch;
  };
  const Shape shapes[] = {{1, 16, 3, 1, 1},    {7, 16, 15, 2, 1},    {64, 64, 15, 1, 1},
                          {5, 48, 1, 1, 1},    {300, 32, 31, 2, 1},  {16, 256, 255, 1, 1},
                          {64, 16, 127, 3, 1}, {1, 16, 3, 1, 4},     {7, 16, 15, 2, 4},
                          {64, 64, 15, 1, 8},  {300, 32, 31, 2, 16}, {13, 32, 1, 1, 3},
                          {16, 256, 255, 1, 8}};
  const test::Size sizes[] = {{1, 1}, {257, 3}, {3, 7}, {127, 129}, {130, 5}, {2, 131}};
  for (const Shape& sh : shapes) {
    BlurParams p;
    p.strategy = BlurStrategy::kSliding;
    p.segment = sh.segment;
    p.workgroup_size = sh.wg;
    p.filter_dim = sh.filter;
    p.iterations = sh.iterations;
    p.prefetch = sh.prefetch;
    Result<Blur> blur = Blur::create(gl, p);
    if (test::refusedForSpecMinimums(p.validate(gl.limits()), blur)) continue;
    ASSERT_TRUE(blur.ok()) << blur.error().message;
    for (test::Size s : sizes)
      for (Content c : test::kAllContents) {
        RgbaImage in = test::makeImage(s.w, s.h, c, uint32_t(sh.segment * 7 + sh.filter));
        ASSERT_EQ(runBlur(blur.value(), in), blurReference(in, p.filter_dim, p.iterations))
            << "sliding segment " << sh.segment << " wg " << sh.wg << " filter " << sh.filter
            << " x" << sh.iterations << " prefetch " << sh.prefetch << " "
            << test::describe(s.w, s.h, c);
      }
  }
  BlurParams p;
  p.strategy = BlurStrategy::kSliding;
  p.iterations = 1;
  Result<Blur> blur = Blur::create(gl, p);
  if (test::refusedForSpecMinimums(p.validate(gl.limits()), blur)) return;
  ASSERT_TRUE(blur.ok());
  for (Content c : {Content::kRandom, Content::kGradient}) {
    RgbaImage in = test::makeImage(1920, 1080, c, 14);
    ASSERT_EQ(runBlur(blur.value(), in), blurReference(in, 15, 1)) << test::contentName(c);
  }
}

TEST(Blur, FusedMatchesReferenceForEveryParameter) {
  // Tiles that do not divide the image, halos wider than the tile and than the image,
  // segments longer than the tile, workgroups smaller and larger than the tile's work, and
  // 1-3 iterations (the ping-pong between out and the temporary image).
  GlContext& gl = test::glContext();
  struct Shape {
    int tw, th, segment, wg, filter, iterations;
  };
  const Shape shapes[] = {{64, 32, 16, 256, 15, 1}, {32, 16, 8, 128, 15, 2}, {7, 5, 3, 16, 3, 3},
                          {16, 16, 64, 64, 31, 1},  {1, 1, 1, 16, 1, 2},     {24, 8, 5, 96, 61, 1},
                          {128, 4, 16, 256, 9, 2}};
  const test::Size sizes[] = {{1, 1}, {257, 3}, {3, 7}, {127, 129}, {130, 5}, {2, 131}};
  for (const Shape& sh : shapes) {
    BlurParams p;
    p.strategy = BlurStrategy::kFused;
    p.tile_width = sh.tw;
    p.tile_rows = sh.th;
    p.segment = sh.segment;
    p.workgroup_size = sh.wg;
    p.filter_dim = sh.filter;
    p.iterations = sh.iterations;
    Result<Blur> blur = Blur::create(gl, p);
    if (test::refusedForSpecMinimums(p.validate(gl.limits()), blur)) continue;
    ASSERT_TRUE(blur.ok()) << blur.error().message;
    for (test::Size s : sizes)
      for (Content c : test::kAllContents) {
        RgbaImage in = test::makeImage(s.w, s.h, c, uint32_t(sh.tw * 7 + sh.filter));
        ASSERT_EQ(runBlur(blur.value(), in), blurReference(in, p.filter_dim, p.iterations))
            << "fused " << sh.tw << "x" << sh.th << " seg " << sh.segment << " wg " << sh.wg
            << " filter " << sh.filter << " x" << sh.iterations << " "
            << test::describe(s.w, s.h, c);
      }
  }
  BlurParams p;
  p.strategy = BlurStrategy::kFused;
  p.tile_width = 64;
  p.tile_rows = 32;
  p.segment = 16;
  p.workgroup_size = 256;
  p.iterations = 1;
  Result<Blur> blur = Blur::create(gl, p);
  if (test::refusedForSpecMinimums(p.validate(gl.limits()), blur)) return;
  ASSERT_TRUE(blur.ok());
  EXPECT_TRUE(p.validate(test::v3dLimits()).ok()) << "64x32 fused tile must fit v3d";
  for (Content c : {Content::kRandom, Content::kGradient}) {
    RgbaImage in = test::makeImage(1920, 1080, c, 15);
    ASSERT_EQ(runBlur(blur.value(), in), blurReference(in, 15, 1)) << test::contentName(c);
  }
  // Too much shared memory: refused with the driver's limit named.
  p.tile_width = 1024;
  p.tile_rows = 64;
  Result<Blur> big = Blur::create(gl, p);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("GL_MAX_COMPUTE_SHARED_MEMORY_SIZE"), std::string::npos)
      << big.error().message;
}

TEST(Blur, SplitMatchesReferenceForEveryParameter) {
  // The tiled horizontal pass without a vertical halo, then the sliding vertical pass.
  GlContext& gl = test::glContext();
  // buffer: the packed buffer between the passes (buffer_intermediate, blur_columns.comp);
  // quads: its vertical pass 4 columns per invocation (widths that are multiples of 4);
  // rows: its horizontal pass 4 pixels per invocation from registers (row_quads, likewise).
  struct Shape {
    int tw, th, segment, wg, filter, iterations, prefetch;
    bool buffer, quads, rows = false;
  };
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
  for (const Shape& sh : shapes) {
    BlurParams p;
    p.strategy = BlurStrategy::kSplit;
    p.tile_width = sh.tw;
    p.tile_rows = sh.th;
    p.segment = sh.segment;
    p.workgroup_size = sh.wg;
    p.filter_dim = sh.filter;
    p.iterations = sh.iterations;
    p.prefetch = sh.prefetch;
    p.buffer_intermediate = sh.buffer;
    p.column_quads = sh.quads;
    p.row_quads = sh.rows;
    Result<Blur> blur = Blur::create(gl, p);
    if (test::refusedForSpecMinimums(p.validate(gl.limits()), blur)) continue;
    ASSERT_TRUE(blur.ok()) << blur.error().message;
    for (test::Size s : sizes)
      for (Content c : test::kAllContents) {
        RgbaImage in = test::makeImage(s.w, s.h, c, uint32_t(sh.tw * 3 + sh.filter));
        const RgbaImage want = blurReference(in, p.filter_dim, p.iterations);
        ASSERT_EQ(runBlur(blur.value(), in), want)
            << "split " << sh.tw << "x" << sh.th << " seg " << sh.segment << " wg " << sh.wg
            << " filter " << sh.filter << " x" << sh.iterations << " prefetch " << sh.prefetch
            << (sh.buffer ? " through a buffer " : " ") << (sh.quads ? "quads " : "")
            << (sh.rows ? "row-quads " : "") << test::describe(s.w, s.h, c);
        if (!sh.buffer) continue;
        // Through a buffer, the packed forms too: image in and buffer in, a packed buffer out.
        for (bool from_image : {true, false})
          ASSERT_EQ(runPackedBlur(blur.value(), in, from_image), want)
              << "split " << sh.tw << "x" << sh.th << " seg " << sh.segment << " filter "
              << sh.filter << " x" << sh.iterations << (sh.quads ? " quads" : "")
              << (sh.rows ? " row-quads" : "") << " prefetch " << sh.prefetch
              << (from_image ? " image" : " buffer") << " -> buffer "
              << test::describe(s.w, s.h, c);
      }
  }
  BlurParams p;
  p.strategy = BlurStrategy::kSplit;
  p.tile_width = 128;
  p.tile_rows = 4;
  p.segment = 16;
  p.workgroup_size = 256;
  p.iterations = 1;
  Result<Blur> blur = Blur::create(gl, p);
  if (test::refusedForSpecMinimums(p.validate(gl.limits()), blur)) return;
  ASSERT_TRUE(blur.ok());
  RgbaImage in = test::makeImage(1920, 1080, Content::kRandom, 16);
  const RgbaImage want = blurReference(in, 15, 1);
  ASSERT_EQ(runBlur(blur.value(), in), want);
  p.buffer_intermediate = true;
  Result<Blur> through_buffer = Blur::create(gl, p);
  if (test::refusedForSpecMinimums(p.validate(gl.limits()), through_buffer)) return;
  ASSERT_TRUE(through_buffer.ok());
  ASSERT_EQ(runBlur(through_buffer.value(), in), want);
  ASSERT_EQ(runPackedBlur(through_buffer.value(), in, false), want);
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
  Status same = through_buffer.value().run(a.value(), a.value());
  ASSERT_FALSE(same.ok());
  EXPECT_NE(same.error().message.find("same buffer"), std::string::npos) << same.error().message;
  Status mismatched = through_buffer.value().run(a.value(), b.value());
  ASSERT_FALSE(mismatched.ok());
  EXPECT_NE(mismatched.error().message.find("output is 3x5, input 5x3"), std::string::npos)
      << mismatched.error().message;
  // Only split through a buffer has them: through an image it is refused, naming why.
  p.buffer_intermediate = false;
  Result<Blur> through_image = Blur::create(gl, p);
  if (test::refusedForSpecMinimums(p.validate(gl.limits()), through_image)) return;
  ASSERT_TRUE(through_image.ok());
  Status refused = through_image.value().run(a.value(), b.value());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("split strategy through a buffer"), std::string::npos)
      << refused.error().message;
  p.buffer_intermediate = true;
  // The 16-bit lanes hold 257 taps of 255 and no more; other strategies refuse the parameter.
  p.filter_dim = 259;
  Result<Blur> wide = Blur::create(gl, p);
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.error().message.find("[1, 257]"), std::string::npos) << wide.error().message;
  p.filter_dim = 15;
  p.strategy = BlurStrategy::kSliding;
  Result<Blur> sliding = Blur::create(gl, p);
  ASSERT_FALSE(sliding.ok());
  EXPECT_NE(sliding.error().message.find("split strategy only"), std::string::npos);
  // The horizontal pass from registers writes the buffer between the passes: none, refused.
  p.strategy = BlurStrategy::kSplit;
  p.buffer_intermediate = false;
  p.row_quads = true;
  Result<Blur> rows_without_buffer = Blur::create(gl, p);
  ASSERT_FALSE(rows_without_buffer.ok());
  EXPECT_NE(rows_without_buffer.error().message.find("row_quads"), std::string::npos)
      << rows_without_buffer.error().message;
}

TEST(Blur, StreamMatchesReferenceForEveryParameter) {
  // One dispatch streaming down the rows: tiles that do not divide the image, halos wider than
  // the tile and the image, 1-16 columns per invocation, rows per workgroup from 1 up past the
  // image, a 129-tap filter (257, the lanes' limit, needs more loop iterations than llvmpipe
  // runs), and 1-3 iterations.
  GlContext& gl = test::glContext();
  struct Shape {
    int rows, columns, wg, filter, iterations;
  };
  const Shape shapes[] = {{64, 4, 64, 15, 1}, {16, 2, 128, 15, 2}, {5, 3, 16, 3, 3},
                          {1, 1, 16, 1, 2},   {7, 16, 4, 61, 1},   {40, 1, 16, 129, 1},
                          {32, 8, 32, 9, 2}};
  const test::Size sizes[] = {{1, 1}, {257, 3}, {3, 7}, {127, 129}, {130, 5}, {2, 131}};
  for (const Shape& sh : shapes) {
    BlurParams p;
    p.strategy = BlurStrategy::kStream;
    p.tile_rows = sh.rows;
    p.segment = sh.columns;
    p.workgroup_size = sh.wg;
    p.filter_dim = sh.filter;
    p.iterations = sh.iterations;
    Result<Blur> blur = Blur::create(gl, p);
    if (test::refusedForSpecMinimums(p.validate(gl.limits()), blur)) continue;
    ASSERT_TRUE(blur.ok()) << blur.error().message;
    for (test::Size s : sizes)
      for (Content c : test::kAllContents) {
        RgbaImage in = test::makeImage(s.w, s.h, c, uint32_t(sh.rows * 5 + sh.filter));
        ASSERT_EQ(runBlur(blur.value(), in), blurReference(in, p.filter_dim, p.iterations))
            << "stream rows " << sh.rows << " columns " << sh.columns << " wg " << sh.wg
            << " filter " << sh.filter << " x" << sh.iterations << " "
            << test::describe(s.w, s.h, c);
      }
  }
  BlurParams p;
  p.strategy = BlurStrategy::kStream;
  p.tile_rows = 64;
  p.segment = 4;
  p.workgroup_size = 64;
  p.iterations = 1;
  EXPECT_TRUE(p.validate(test::v3dLimits()).ok()) << "64 x 4 columns must fit v3d";
  Result<Blur> blur = Blur::create(gl, p);
  if (test::refusedForSpecMinimums(p.validate(gl.limits()), blur)) return;
  ASSERT_TRUE(blur.ok()) << blur.error().message;
  for (Content c : {Content::kRandom, Content::kGradient}) {
    RgbaImage in = test::makeImage(1920, 1080, c, 15);
    ASSERT_EQ(runBlur(blur.value(), in), blurReference(in, 15, 1)) << test::contentName(c);
  }
  // Past the 16-bit lanes, and a ring past the shared memory: refused, naming why.
  p.filter_dim = 259;
  Result<Blur> wide = Blur::create(gl, p);
  ASSERT_FALSE(wide.ok());
  EXPECT_NE(wide.error().message.find("[1, 257]"), std::string::npos) << wide.error().message;
  p.filter_dim = 15;
  p.segment = 16;
  p.workgroup_size = 256;
  Result<Blur> big = Blur::create(gl, p);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("GL_MAX_COMPUTE_SHARED_MEMORY_SIZE"), std::string::npos)
      << big.error().message;
  EXPECT_EQ(parseBlurStrategy("stream").value(), BlurStrategy::kStream);
}

TEST(Blur, SlidingRefusesBadParameters) {
  GlContext& gl = test::glContext();
  BlurParams p;
  p.strategy = BlurStrategy::kSliding;
  p.filter_dim = 14;
  Result<Blur> b = Blur::create(gl, p);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("half a pixel"), std::string::npos) << b.error().message;
  p.filter_dim = 1025;
  b = Blur::create(gl, p);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("[1, 1023]"), std::string::npos) << b.error().message;
  p.filter_dim = 15;
  p.segment = 0;
  b = Blur::create(gl, p);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("segment must be in [1, 4096]"), std::string::npos);
  p.segment = 64;
  p.prefetch = 17;
  b = Blur::create(gl, p);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("prefetch must be in [1, 16]"), std::string::npos)
      << b.error().message;
  p.prefetch = 1;
  p.segment = 4096;
  p.filter_dim = 1023;  // 5121 loop iterations: fine; a longer loop is refused on llvmpipe
  EXPECT_TRUE(Blur::create(gl, p).ok());
  p.workgroup_size = gl.limits().work_group_invocations + 16;
  b = Blur::create(gl, p);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("blur sliding"), std::string::npos) << b.error().message;
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
  Status s = ok->run(a.value(), b.value());
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("blur: output is 9x8, input 8x8"), std::string::npos);
}

}  // namespace
}  // namespace esf
