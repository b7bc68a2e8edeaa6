// The Sobel stage (GPU and the CPU executor's kernel) against its plain reference, and the
// reference against siti's kernels written out for one pixel.
#include <gtest/gtest.h>

#include "core/cpu/cpu_health.hpp"
#include "core/image/gpu_image.hpp"
#include "core/stages/frame_difference.hpp"
#include "core/stages/sobel.hpp"
#include "core/stages/sobel_reference.hpp"
#include "core/stages/stage_gl.hpp"
#include "core/stats/health_regions.hpp"
#include "platform/shader_library.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

using test::Content;

TEST(SobelReference, OnePixelBySitisKernels) {
  // 3x3, full range: the one interior pixel. siti: gx = sum data * {1,0,-1, 2,0,-2, 1,0,-1},
  // gy = sum data * {1,2,1, 0,0,0, -1,-2,-1}, row by row.
  const uint8_t f[] = {10, 20, 30, 40, 50, 60, 70, 80, 255};
  const int gx = 10 - 30 + 2 * 40 - 2 * 60 + 70 - 255;
  const int gy = 10 + 2 * 20 + 30 - 70 - 2 * 80 - 255;
  SobelSums s = sobelReference(f, 3, 3, true);
  EXPECT_EQ(s.samples, 1u);
  EXPECT_EQ(s.squares, uint64_t(gx * gx + gy * gy));
  EXPECT_EQ(s.roots, sobelRoot(uint32_t(gx * gx + gy * gy)));
  EXPECT_EQ(sobelReference(f, 2, 3, true).samples, 0u);  // no interior pixel
}

// The shader's root leans on the GPU's float square root and one correcting step: every
// magnitude a frame can give (m <= 2 * 1020^2) against the integer definition.
TEST(Sobel, EveryRootOnTheGpuIsExact) {
  const GlContext& gl = test::glContext();
  constexpr uint32_t kCount = 2 * 1020 * 1020 + 1;
  // The driver's own workgroup (64 x 2 within GLES 3.1's minimum of 128 invocations).
  const int wg_y = SobelParams::defaultsFor(gl).workgroup_y;
  const uint32_t invocations = 64u * uint32_t(wg_y);
  Result<GlProgram> program = ShaderLibrary::builtin().compute(
      "sobel.comp", ShaderDefines().set("WG_Y", wg_y).set("ROOT_TABLE", 1));
  ASSERT_TRUE(program.ok()) << program.error().message;
  Result<GlBuffer> roots = makeStorageBuffer(kCount, "roots");
  ASSERT_TRUE(roots.ok()) << roots.error().message;
  ASSERT_TRUE(fillBuffer(roots->get(), kCount, test::kPoison, "roots").ok());
  glUseProgram(program->get());
  glUniform1ui(glGetUniformLocation(program->get(), "u_count"), kCount);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, roots->get());
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glDispatchCompute((kCount + invocations - 1) / invocations, 1, 1);
  glMemoryBarrier(kStorageWrittenBarrier);
  Result<std::vector<uint32_t>> got = readWords(roots->get(), kCount, "roots");
  ASSERT_TRUE(got.ok()) << got.error().message;
  int wrong = 0;
  for (uint32_t m = 0; m < kCount; ++m)
    if (got.value()[m] != sobelRoot(m) && ++wrong <= 5)
      ADD_FAILURE() << "m " << m << ": " << got.value()[m] << ", want " << sobelRoot(m);
  EXPECT_EQ(wrong, 0);
}

TEST(Sobel, MatchesReference) {
  GlContext& gl = test::glContext();
  Result<FrameDifference> difference =
      FrameDifference::create(gl, FrameDifferenceParams::defaultsFor(gl));
  ASSERT_TRUE(difference.ok()) << difference.error().message;
  Result<Sobel> sobel = Sobel::create(gl, SobelParams::defaultsFor(gl));
  ASSERT_TRUE(sobel.ok()) << sobel.error().message;
  RowPool pool(3);
  struct Size {
    int w, h;
  };
  for (Size s : {Size{1, 1}, Size{3, 3}, Size{2, 9}, Size{257, 3}, Size{127, 129}, Size{33, 300},
                 Size{1920, 1080}})
    for (Content content : test::kAllContents)
      for (bool full_range : {false, true}) {
        if (s.w == 1920 && content != Content::kRandom && content != Content::kGradient) continue;
        SCOPED_TRACE(testing::Message() << s.w << "x" << s.h << " " << test::contentName(content)
                                        << (full_range ? " full" : " limited"));
        const RgbaImage image = test::makeImage(s.w, s.h, content, 9);
        // The difference's luma (the image's red channel), and the packed frame's own (the
        // BT.709 luma of its RGB).
        for (bool packed : {false, true}) {
          SCOPED_TRACE(packed ? "packed frame, luma from RGB" : "the difference's luma");
          const std::vector<uint8_t> luma = test::lumaOf(image, packed);
          const SobelSums want = sobelReference(luma.data(), s.w, s.h, full_range);
          EXPECT_EQ(sobelCpu(luma.data(), s.w, s.h, full_range, {}, pool), want);
          ASSERT_TRUE(sobel->poison(test::kPoison).ok());
          if (packed) {
            Result<PackedRgbaBuffer> gpu = PackedRgbaBuffer::fromImage(image);
            ASSERT_TRUE(gpu.ok()) << gpu.error().message;
            ASSERT_TRUE(sobel->run(*gpu, true, full_range).ok());
          } else {
            Result<GpuImage> gpu = GpuImage::fromImage(image);
            ASSERT_TRUE(gpu.ok()) << gpu.error().message;
            ASSERT_TRUE(difference->run(*gpu, false, full_range).ok());
            ASSERT_TRUE(sobel->run(difference->currentLuma(), s.w, s.h, full_range).ok());
            difference->advance(false);
          }
          Result<SobelSums> got = sobel->read();
          ASSERT_TRUE(got.ok()) << got.error().message;
          EXPECT_EQ(got.value(), want);
        }
      }
}

TEST(Sobel, RegionSumsMatchReference) {
  GlContext& gl = test::glContext();
  RowPool pool(3);
  using Case = test::RegionCase;
  for (Case c : {Case{1, 1, 1, 1}, Case{3, 3, 3, 3}, Case{257, 3, 4, 3}, Case{127, 129, 16, 16},
                 Case{33, 300, 3, 7}, Case{1920, 1080, 8, 6}}) {
    HealthRegionSpec regions;
    regions.columns = c.columns;
    regions.rows = c.rows;
    regions.rois = {{0, 0, 2, 2}, {3, 2, 50, 40}, {10, 1, 100000, 7}, {5000, 5000, 10, 10}};
    SCOPED_TRACE(testing::Message() << c.w << "x" << c.h << " grid " << c.columns << "x" << c.rows);
    Result<FrameDifference> difference =
        FrameDifference::create(gl, FrameDifferenceParams::defaultsFor(gl), regions);
    Result<Sobel> sobel = Sobel::create(gl, SobelParams::defaultsFor(gl), regions);
    ASSERT_TRUE(difference.ok() && sobel.ok());
    const RgbaImage image = test::makeImage(c.w, c.h, Content::kRandom, 4);
    std::vector<uint8_t> luma(size_t(c.w) * size_t(c.h));
    for (size_t i = 0; i < luma.size(); ++i) luma[i] = image.pixels[i * 4];
    const SobelSums want = sobelReference(luma.data(), c.w, c.h, false, regions);
    ASSERT_EQ(want.region_squares.size(), regions.count());
    // The cells split the interior: their sums add up to the frame's.
    uint64_t cells = 0;
    for (size_t i = 0; i < regions.cells(); ++i) cells += want.region_squares[i];
    EXPECT_EQ(cells, want.squares);
    EXPECT_EQ(sobelCpu(luma.data(), c.w, c.h, false, regions, pool), want);
    Result<GpuImage> gpu = GpuImage::fromImage(image);
    ASSERT_TRUE(gpu.ok());
    ASSERT_TRUE(difference->run(*gpu, false, false).ok());
    ASSERT_TRUE(sobel->poison(test::kPoison).ok());
    ASSERT_TRUE(sobel->run(difference->currentLuma(), c.w, c.h, false).ok());
    Result<SobelSums> got = sobel->read();
    ASSERT_TRUE(got.ok()) << got.error().message;
    EXPECT_EQ(got.value(), want);
    Result<PackedRgbaBuffer> packed = PackedRgbaBuffer::fromImage(image);
    ASSERT_TRUE(packed.ok());
    ASSERT_TRUE(sobel->poison(test::kPoison).ok());
    ASSERT_TRUE(sobel->run(*packed, false, false).ok());
    got = sobel->read();
    ASSERT_TRUE(got.ok()) << got.error().message;
    EXPECT_EQ(got.value(), want) << "packed frame";
  }
}

TEST(Sobel, LargestGradientsKeepEverySumExact) {
  // Vertical stripes of 0 and 255, two pixels wide, give every pixel |gx| = 1020: every word of
  // the 96-bit sum is in use on a big frame, and a workgroup's sum m, of the frame and of the one
  // region (a 1x1 grid), passes 32 bits (256 x 32 pixels of 1040400 each).
  GlContext& gl = test::glContext();
  Result<FrameDifference> difference =
      FrameDifference::create(gl, FrameDifferenceParams::defaultsFor(gl));
  HealthRegionSpec whole;
  whole.columns = whole.rows = 1;
  const SobelParams params = SobelParams::defaultsFor(gl);
  Result<Sobel> sobel = Sobel::create(gl, params, whole);
  ASSERT_TRUE(difference.ok() && sobel.ok());
  const int w = 2048, h = 1536;
  RgbaImage image(w, h);
  std::vector<uint8_t> luma(size_t(w) * size_t(h));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const uint8_t v = (x / 2) % 2 ? 255 : 0;
      luma[size_t(y) * w + x] = v;
      uint8_t* p = image.at(x, y);
      p[0] = p[1] = p[2] = v, p[3] = 255;
    }
  SobelSums want = sobelReference(luma.data(), w, h, true);
  EXPECT_NE(want.root_squares.words[2], 0u);
  EXPECT_EQ(want.squares, want.samples * 1040400u);
  // 64 x 2 invocations (the GLES minimum) cover 256 x 16 pixels: 4.26e9, just short of 2^32.
  if (params.workgroup_y >= 4) {
    EXPECT_GT(want.squares / want.samples * 256 * uint64_t(params.rowsPerWorkgroup()),
              uint64_t(0xFFFFFFFFu));
  }
  want.region_squares = {want.squares};
  Result<GpuImage> gpu = GpuImage::fromImage(image);
  ASSERT_TRUE(gpu.ok());
  ASSERT_TRUE(difference->run(*gpu, false, true).ok());
  ASSERT_TRUE(sobel->run(difference->currentLuma(), w, h, true).ok());
  Result<SobelSums> got = sobel->read();
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(got.value(), want);
}

}  // namespace
}  // namespace esf
