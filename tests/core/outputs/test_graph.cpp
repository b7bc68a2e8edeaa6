// The histogram graph: GPU (graph.frag) against a golden PNG made by an independent rasterizer
// here (exact rational bar heights, no floats), both checked against pixels worked out by hand,
// and against the CPU reference for arbitrary scales at odd sizes. Targets are poisoned before
// each draw.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/outputs/graph_renderer.hpp"
#include "core/outputs/png_output.hpp"
#include "core/stages/scale_reference.hpp"
#include "tests/core/outputs/graph_test_util.hpp"
#include "tests/core/outputs/png_test_util.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

using test::fixedScales;
using test::HandPixel;
using test::kScaleDen;
using test::loadPng;
using test::makeSsbo;
using test::poisonTarget;
using test::scaleWords;

constexpr int kBins = 16;
constexpr int kWidth = 83;  // not a multiple of the bin count
constexpr int kHeight = 64;
const std::string kChannels = "rgbl";

HistogramData fixedHistogram() {
  return test::fixedHistogram();
}

// Independent raster: column x shows bin k when bin boundary k * W / bins lies at or left of
// the pixel centre x + 0.5; row r (from the bottom) is lit for a channel when its centre
// r + 0.5 is below the bar height count * H / den, i.e. (2r + 1) * den < 2 * count * H.
RgbaImage independentGraph(const HistogramData& h) {
  const int bit[4] = {1, 2, 4, 8};
  RgbaImage img(kWidth, kHeight);
  for (int x = 0; x < kWidth; ++x) {
    int bin = 0;
    while (bin + 1 < kBins && 2 * (bin + 1) * kWidth <= (2 * x + 1) * kBins) ++bin;
    for (int r = 0; r < kHeight; ++r) {
      int mask = 0;
      for (int c = 0; c < 4; ++c)
        if (uint64_t(2 * r + 1) * kScaleDen[c] < 2ull * h.at(bin, c) * kHeight) mask |= bit[c];
      std::vector<uint8_t> colour = test::seedColour(mask);
      std::copy(colour.begin(), colour.end(), img.at(x, kHeight - 1 - r));
    }
  }
  return img;
}

Result<RgbaImage> renderOnGpu(const HistogramData& h, const std::vector<float>& scales, int w,
                              int height) {
  return test::renderPoisoned(GraphRenderer::create(h.bins, h.channels, w, height), h,
                              scaleWords(scales));
}

// Pixels of the fixed graph worked out by hand, an oracle for the raster above that shares no
// code with it. counts(bin, c) = (7 bin + 13 c + bin^2) % 71 and bar height = count * 64 / den
// in rows: bin 3 = {30, 86, 28, 69} (L fills the column: white); bin 4 = {44, 114, 35, 12};
// bin 5 = {60, 4, 7.5, 28}. Columns: x shows bin floor((2x + 1) * 16 / 166), so bin 3 ends at
// x = 20, bin 4 is x = 21..25, bin 5 starts at x = 26. Row y is r = 63 - y from the bottom and
// a bar of height h lights r when r + 0.5 < h.
constexpr HandPixel kHandPixels[] = {
    {20, 0, 255, 255, 255, "bin 3, L reaches the top: white"},
    {21, 0, 0, 255, 0, "bin 4 top row: only G (114) reaches: green"},
    {23, 63, 255, 255, 255, "bin 4 bottom row: L lit: white"},
    {23, 52, 255, 255, 255, "bin 4 r = 11 < 12 (L): white"},
    {23, 51, 128, 128, 128, "bin 4 r = 12: R, G, B without L: grey"},
    {23, 29, 128, 128, 128, "bin 4 r = 34 < 35 (B): grey"},
    {23, 28, 255, 255, 0, "bin 4 r = 35: R and G: yellow"},
    {23, 20, 255, 255, 0, "bin 4 r = 43 < 44 (R): yellow"},
    {23, 19, 0, 255, 0, "bin 4 r = 44: G alone: green"},
    {25, 0, 0, 255, 0, "bin 4 last column: green"},
    {26, 0, 0, 0, 0, "bin 5 top row: nothing reaches: black"},
    {26, 36, 255, 255, 255, "bin 5 r = 27 < 28 (L): white"},
    {26, 35, 255, 0, 0, "bin 5 r = 28: R alone (60): red"},
    {26, 33, 255, 0, 0, "bin 5 r = 30: red"},
};

void expectHandWorkedPixels(const RgbaImage& img, const std::string& what) {
  ASSERT_EQ(img.width, kWidth) << what;
  ASSERT_EQ(img.height, kHeight) << what;
  test::expectHandPixels(img, kHandPixels, what);
}

const std::string& goldenPath() {
  static const std::string path = std::string(ESF_GOLDEN_DIR) + "/graph_rgbl_16bins_83x64.png";
  return path;
}

TEST(Graph, IndependentRasterMatchesHandWorkedPixels) {
  expectHandWorkedPixels(independentGraph(fixedHistogram()), "independent raster");
}

// An update run (ESFRAME_UPDATE_GOLDEN set) must not pass by reading back what it just wrote:
// it writes only a raster that the hand-worked pixels and the GPU both confirm, then checks the
// file against the GPU's rendering.
TEST(Graph, GoldenPngIsTheIndependentRaster) {
  const RgbaImage expected = independentGraph(fixedHistogram());
  if (std::getenv("ESFRAME_UPDATE_GOLDEN")) {
    expectHandWorkedPixels(expected, "independent raster");
    ASSERT_FALSE(HasFailure()) << "not rewriting " << goldenPath() << " from a wrong raster";
    test::glContext();
    Result<RgbaImage> gpu = renderOnGpu(fixedHistogram(), fixedScales(), kWidth, kHeight);
    ASSERT_TRUE(gpu) << gpu.error().message;
    ASSERT_TRUE(gpu.value() == expected)
        << "not rewriting " << goldenPath() << ": the GPU does not draw the independent raster";
    ASSERT_TRUE(writePng(goldenPath(), expected, ExistingFile::kReplace));
    std::fprintf(stderr, "ESFRAME_UPDATE_GOLDEN: rewrote %s; review its diff before committing\n",
                 goldenPath().c_str());
    const RgbaImage file = loadPng(goldenPath());
    expectHandWorkedPixels(file, goldenPath());
    EXPECT_TRUE(file == gpu.value()) << "the rewritten golden differs from the GPU rendering";
    return;
  }
  const RgbaImage file = loadPng(goldenPath());
  ASSERT_EQ(file.width, kWidth) << goldenPath();
  expectHandWorkedPixels(file, goldenPath());
  EXPECT_TRUE(file == expected) << "the committed golden differs from the independent raster";
}

TEST(Graph, GpuMatchesGoldenPixelForPixel) {
  test::glContext();
  const RgbaImage golden = loadPng(goldenPath());
  ASSERT_EQ(golden.width, kWidth);
  Result<RgbaImage> gpu = renderOnGpu(fixedHistogram(), fixedScales(), kWidth, kHeight);
  ASSERT_TRUE(gpu) << gpu.error().message;
  EXPECT_EQ(test::countDiffs(golden, gpu.value(), "GPU against the golden"), 0);
  expectHandWorkedPixels(gpu.value(), "GPU graph");
  EXPECT_TRUE(renderGraphReference(fixedHistogram(), fixedScales(), kWidth, kHeight) == golden);
}

TEST(Graph, GpuMatchesCpuReferenceForRealScalesAtOddSizes) {
  test::glContext();
  std::mt19937 rng(99);
  using Case = test::GraphCase;
  for (const Case& c : {Case{1, "l", 1, 1}, Case{3, "rgb", 257, 3}, Case{255, "gl", 31, 200},
                        Case{256, "rgbl", 512, 256}, Case{16, "bgr", 100, 37}}) {
    const HistogramData h = test::histogramOf(c, [&](int, int) { return uint32_t(rng() % 5000); });
    uint64_t pixels = 0;
    for (int b = 0; b < c.bins; ++b) pixels += h.at(b, 0);
    std::vector<float> scales;
    for (const ChannelScale& s :
         scaleReference(h.counts, c.bins, int(c.channels.size()), std::max<uint64_t>(pixels, 1)))
      scales.push_back(s.scale);
    SCOPED_TRACE(std::to_string(c.bins) + " " + c.channels + " " + std::to_string(c.w) + "x" +
                 std::to_string(c.h));
    Result<RgbaImage> gpu = renderOnGpu(h, scales, c.w, c.h);
    ASSERT_TRUE(gpu) << gpu.error().message;
    EXPECT_TRUE(gpu.value() == renderGraphReference(h, scales, c.w, c.h));
  }
}

// renderTo() (the DRM output's path) draws into a viewport of a bigger framebuffer and
// nowhere else: the rectangle equals the CPU reference, the pixels around it keep the poison.
TEST(Graph, RenderToViewportTouchesOnlyItsRectangle) {
  test::glContext();
  const HistogramData h = fixedHistogram();
  Result<GraphRenderer> g = GraphRenderer::create(h.bins, h.channels, 8, 8);
  ASSERT_TRUE(g) << g.error().message;
  GlBuffer counts = makeSsbo(h.counts);
  GlBuffer scale = makeSsbo(scaleWords(fixedScales()));
  const int fw = 120, fh = 90, x0 = 17, y0 = 9;
  const test::PoisonedTarget target =
      test::bindPoisonedTarget(fw, fh, 0xDE / 255.f, 0xAD / 255.f, 0xBE / 255.f, 0xEF / 255.f);
  Status s = g->renderTo(counts.get(), scale.get(), x0, y0, kWidth, kHeight);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  ASSERT_TRUE(s) << s.error().message;
  Result<RgbaImage> all = readTexture(target.texture.get(), fw, fh);  // row 0 = GL's bottom row
  ASSERT_TRUE(all) << all.error().message;
  const RgbaImage want = renderGraphReference(h, fixedScales(), kWidth, kHeight);  // top row 0
  int wrong = 0;
  for (int y = 0; y < fh; ++y) {
    for (int x = 0; x < fw; ++x) {
      const uint8_t* got = all->at(x, y);
      const bool inside = x >= x0 && x < x0 + kWidth && y >= y0 && y < y0 + kHeight;
      const uint8_t poison[4] = {0xDE, 0xAD, 0xBE, 0xEF};
      const uint8_t* expect = inside ? want.at(x - x0, kHeight - 1 - (y - y0)) : poison;
      if (!std::equal(expect, expect + 4, got)) ++wrong;
    }
  }
  EXPECT_EQ(wrong, 0);
}

TEST(Graph, RefusesBadShapes) {
  test::glContext();
  EXPECT_FALSE(GraphRenderer::create(0, "rgbl", 10, 10));
  EXPECT_FALSE(GraphRenderer::create(257, "rgbl", 10, 10));
  EXPECT_FALSE(GraphRenderer::create(16, "", 10, 10));
  EXPECT_FALSE(GraphRenderer::create(16, "l", 0, 10));
}

}  // namespace
}  // namespace esf
