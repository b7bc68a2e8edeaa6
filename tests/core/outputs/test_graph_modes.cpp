// The graph's modes (overlay, parade, luma), log scale and decorations (caption strip, clip
// markers, quarter grid): the GPU and the CPU reference against golden PNGs made by an
// independent rasterizer written here from graph_layout.hpp's description (integer bar
// heights, its own bin and panel search, the font's glyph rows read one bit at a time), which is
// itself checked against pixels worked out by hand. Targets are poisoned before each draw.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/outputs/bitmap_font.hpp"
#include "core/outputs/graph_renderer.hpp"
#include "core/outputs/png_output.hpp"
#include "tests/core/outputs/graph_test_util.hpp"
#include "tests/core/outputs/png_test_util.hpp"

// A namespace of its own: a test executable's sources compile together in unity batches.
namespace esf::graph_modes_test {
namespace {

using test::countDiffs;
using test::fixedScales;
using test::HandPixel;
using test::kScaleDen;

constexpr int kBins = 16;
constexpr int kWidth = 131;  // odd, not a multiple of the bins or the 4 parade panels
constexpr int kHeight = 80;  // text scale 1: a 9-row strip, 71 rows of bars
const std::string kChannels = "rgbl";

HistogramData fixedHistogram() {
  return test::fixedHistogram(/*empty_bin=*/7);  // the grid shows there
}

GraphLabels fixedLabels() {
  GraphLabels l;
  l.caption = "L MEAN 118.3 P10 40 P50 120 P90 200 EV +0.3 CLIP 25.00%/0.50%";
  l.clipped_low = 50;  // markers: ceil(50 * 71 / 200) = 18 rows; ceil(71 / 200) = 1 -> 3 rows
  l.clipped_high = 1;
  l.total = 200;
  return l;
}

uint32_t maxCount(const HistogramData& h, int c) {
  uint32_t m = 0;
  for (int b = 0; b < h.bins; ++b) m = std::max(m, h.at(b, c));
  return m;
}

struct Style {
  GraphMode mode;
  bool log;
  const char* golden;
};
const Style kStyles[] = {
    {GraphMode::kOverlay, false, "graph_overlay_decor_131x80.png"},
    {GraphMode::kParade, true, "graph_parade_log_decor_131x80.png"},
    {GraphMode::kLuma, false, "graph_luma_decor_131x80.png"},
};

std::string goldenPath(const Style& s) {
  return std::string(ESF_GOLDEN_DIR) + "/" + s.golden;
}

RgbaImage independentGraph(const Style& style, uint8_t alpha = 255) {
  const HistogramData h = fixedHistogram();
  const GraphLabels labels = fixedLabels();
  const int strip = 9, rows = kHeight - strip;
  const int low_rows = 18, high_rows = 3, marker = 3;
  const std::vector<uint8_t> background = {0, 0, 0, alpha};
  RgbaImage img(kWidth, kHeight);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      std::vector<uint8_t> colour = background;
      const int r = kHeight - 1 - y;  // from the bottom
      if (y < strip) {
        const int glyph = (x - 2) / 6, column = (x - 2) % 6, glyph_row = y - 1;
        if (x >= 2 && glyph_row >= 0 && glyph_row < 7 && column < 5 &&
            size_t(glyph) < labels.caption.size() &&
            (glyphRows(labels.caption[size_t(glyph)])[size_t(glyph_row)] >> (4 - column)) & 1)
          colour = {255, 255, 255, 255};
      } else if ((x < marker && r < low_rows) || (x >= kWidth - marker && r < high_rows)) {
        colour = {255, 128, 0, 255};
      } else {
        int left = 0, right = kWidth, first = 0, last = 3;
        if (style.mode == GraphMode::kParade) {
          for (int k = 0; k < 4; ++k) {
            if (k * kWidth / 4 <= x && x < (k + 1) * kWidth / 4) {
              left = k * kWidth / 4;
              right = (k + 1) * kWidth / 4;
              first = last = k;
            }
          }
        } else if (style.mode == GraphMode::kLuma) {
          first = last = 3;
        }
        const int lx = x - left, pw = right - left;
        int bin = 0;
        while (bin + 1 < kBins && 2 * (bin + 1) * pw <= (2 * lx + 1) * kBins) ++bin;
        int mask = 0;
        for (int c = first; c <= last; ++c) {
          const uint64_t n = h.at(bin, c);
          const bool lit = style.log ? uint64_t(2 * r + 1) * test::log256(maxCount(h, c) + 1) <
                                           uint64_t(2 * rows) * test::log256(n + 1)
                                     : uint64_t(2 * r + 1) * kScaleDen[c] < 2 * n * rows;
          if (lit) mask |= 1 << c;  // kChannels is "rgbl": bits r 1, g 2, b 4, l 8
        }
        if (mask)
          colour = test::seedColour(mask);
        else if (lx == pw / 4 || lx == 2 * pw / 4 || lx == 3 * pw / 4 || r == rows / 4 ||
                 r == 2 * rows / 4 || r == 3 * rows / 4)
          colour = {72, 72, 72, 255};
      }
      std::copy(colour.begin(), colour.end(), img.at(x, y));
    }
  }
  return img;
}

Result<RgbaImage> renderOnGpu(const HistogramData& h, const std::vector<float>& scales, int w,
                              int height, const GraphOptions& options, const GraphLabels& labels,
                              uint8_t alpha = 255) {
  std::vector<uint32_t> max_counts;
  for (int c = 0; c < h.channelCount(); ++c) max_counts.push_back(maxCount(h, c));
  return test::renderPoisoned(GraphRenderer::create(h.bins, h.channels, w, height, options, alpha),
                              h, test::scaleWords(scales, max_counts), labels);
}

Result<RgbaImage> renderStyleOnGpu(const Style& s, uint8_t alpha = 255) {
  return renderOnGpu(fixedHistogram(), fixedScales(), kWidth, kHeight, {s.mode, s.log, true},
                     fixedLabels(), alpha);
}

// Pixels of the decorated overlay worked out by hand (x, y from the top left).
constexpr HandPixel kHandPixels[] = {
    {2, 1, 255, 255, 255, "caption 'L', top of its stem (x = 2s, y = s): ink"},
    {3, 1, 0, 0, 0, "right of the L's stem: background"},
    {6, 7, 255, 255, 255, "L's foot, last column of the glyph: ink"},
    {7, 7, 0, 0, 0, "the blank column after a glyph"},
    {0, 0, 0, 0, 0, "strip, left of the text margin"},
    {0, 79, 255, 128, 0, "low clip marker, bottom row"},
    {2, 62, 255, 128, 0, "low clip marker, row 17 of 18"},
    {130, 77, 255, 128, 0, "high clip marker, row 2 of 3"},
    {130, 76, 255, 255, 255, "above the high marker: bin 15, L 14 / 64 * 71 = 15.5 > 3.5: white"},
    {60, 44, 72, 72, 72, "bin 7 (x 57..65) is empty: grid row r = 2 * 71 / 4 = 35"},
    {60, 45, 0, 0, 0, "bin 7, r = 34: background"},
    {98, 14, 72, 72, 72, "grid column x = 3 * 131 / 4 = 98 (bin 12, no bar reaches r = 65)"},
    {99, 14, 0, 0, 0, "bin 12, r = 65, beside the grid column: background"},
    {65, 20, 0, 255, 0, "bin 8 starts at x = 65; r = 59: only G (62 / 32 * 71 = 137.6): green"},
};

TEST(GraphModes, IndependentRasterMatchesHandWorkedPixels) {
  test::expectHandPixels(independentGraph(kStyles[0]), kHandPixels, "independent raster");
  // Parade: panel edges 0, 32, 65, 98; the b panel (65..97) draws blue only.
  const RgbaImage parade = independentGraph(kStyles[1]);
  for (int y = 9; y < kHeight; ++y) {
    const uint8_t* p = parade.at(80, y);
    EXPECT_TRUE(p[0] == p[2] ? p[0] == 0 || p[0] == 72 : p[0] == 0 && p[1] == 0 && p[2] == 255)
        << "parade b panel, row " << y;
  }
}

// ESFRAME_UPDATE_GOLDEN rewrites the files only from a raster that the GPU draws too.
TEST(GraphModes, GoldenPngsAreTheIndependentRaster) {
  for (const Style& s : kStyles) {
    SCOPED_TRACE(s.golden);
    const RgbaImage expected = independentGraph(s);
    if (std::getenv("ESFRAME_UPDATE_GOLDEN")) {
      test::glContext();
      Result<RgbaImage> gpu = renderStyleOnGpu(s);
      ASSERT_TRUE(gpu) << gpu.error().message;
      ASSERT_EQ(countDiffs(expected, gpu.value(), "GPU against the independent raster"), 0)
          << "not rewriting " << goldenPath(s);
      ASSERT_TRUE(writePng(goldenPath(s), expected));
      std::fprintf(stderr, "ESFRAME_UPDATE_GOLDEN: rewrote %s\n", goldenPath(s).c_str());
    }
    EXPECT_EQ(countDiffs(expected, test::loadPng(goldenPath(s)), goldenPath(s)), 0);
  }
}

TEST(GraphModes, GpuAndCpuReferenceDrawEachGolden) {
  test::glContext();
  for (const Style& s : kStyles) {
    SCOPED_TRACE(s.golden);
    const RgbaImage golden = test::loadPng(goldenPath(s));
    Result<RgbaImage> gpu = renderStyleOnGpu(s);
    ASSERT_TRUE(gpu) << gpu.error().message;
    EXPECT_EQ(countDiffs(golden, gpu.value(), "GPU"), 0);
    const RgbaImage cpu = renderGraphReference(fixedHistogram(), fixedScales(), kWidth, kHeight,
                                               {s.mode, s.log, true}, fixedLabels());
    EXPECT_EQ(countDiffs(golden, cpu, "CPU reference"), 0);
  }
}

// The DRM overlay's translucent background: alpha in the background and the strip only.
TEST(GraphModes, TranslucentBackground) {
  test::glContext();
  Result<RgbaImage> gpu = renderStyleOnGpu(kStyles[0], 96);
  ASSERT_TRUE(gpu) << gpu.error().message;
  EXPECT_EQ(countDiffs(independentGraph(kStyles[0], 96), gpu.value(), "alpha 96"), 0);
  EXPECT_EQ(gpu->at(3, 1)[3], 96);
  EXPECT_EQ(gpu->at(60, 44)[3], 255);  // grid
}

TEST(GraphModes, GpuMatchesCpuReferenceAtOddSizes) {
  test::glContext();
  std::mt19937 rng(1234);
  using Case = test::GraphCase;
  for (const Case& c : {Case{1, "l", 1, 1}, Case{3, "rgb", 257, 3}, Case{255, "gl", 31, 200},
                        Case{256, "rgbl", 900, 400}, Case{16, "bgrl", 100, 37}}) {
    const HistogramData h = test::histogramOf(
        c, [&](int, int) { return uint32_t(rng() % 3 == 0 ? 0 : rng() % 100000); });
    std::vector<float> scales;
    for (size_t k = 0; k < c.channels.size(); ++k) scales.push_back(float(rng() % 1000) * 1e-6f);
    GraphLabels labels;
    labels.caption = "P50 " + std::to_string(rng() % 256) + " ~#";  // '~', '#': drawn as '?'
    labels.total = 1000;
    labels.clipped_low = rng() % 1000;
    labels.clipped_high = rng() % 3;
    for (GraphMode mode : {GraphMode::kOverlay, GraphMode::kParade, GraphMode::kLuma}) {
      if (mode == GraphMode::kLuma && c.channels.find('l') == std::string::npos) continue;
      if (mode == GraphMode::kParade && c.w < int(c.channels.size())) continue;
      for (bool log : {false, true}) {
        SCOPED_TRACE(c.channels + " " + std::to_string(c.w) + "x" + std::to_string(c.h) + " mode " +
                     std::to_string(int(mode)) + (log ? " log" : " linear"));
        Result<RgbaImage> gpu = renderOnGpu(h, scales, c.w, c.h, {mode, log, true}, labels, 200);
        ASSERT_TRUE(gpu) << gpu.error().message;
        EXPECT_EQ(
            countDiffs(renderGraphReference(h, scales, c.w, c.h, {mode, log, true}, labels, 200),
                       gpu.value(), "GPU against the CPU reference"),
            0);
      }
    }
  }
}

TEST(GraphModes, RefusesModesTheChannelsCannotDraw) {
  test::glContext();
  Result<GraphRenderer> luma = GraphRenderer::create(16, "rgb", 64, 64, {GraphMode::kLuma});
  ASSERT_FALSE(luma);
  EXPECT_NE(luma.error().message.find("luma needs the l channel"), std::string::npos);
  EXPECT_FALSE(GraphRenderer::create(16, "rgbl", 3, 64, {GraphMode::kParade}));
  EXPECT_TRUE(GraphRenderer::create(16, "rgbl", 4, 64, {GraphMode::kParade}));
}

TEST(BitmapFont, ColumnsOfKnownGlyphs) {
  // 'L': a full stem, then the foot (row 6) alone; '1' (rows 04 0C 04 04 04 04 0E): its stem
  // in the middle column, the flag at row 1 left of it, the base (row 6) three columns wide.
  const std::vector<uint8_t> want = {0x7F, 0x40, 0x40, 0x40, 0x40, 0,   // L
                                     0x00, 0x42, 0x7F, 0x40, 0x00, 0};  // 1
  EXPECT_EQ(textColumns("L1"), want);
  EXPECT_EQ(textColumns("l1"), want);  // lower case draws as upper case
  EXPECT_EQ(textColumns("#"), textColumns("?"));
  EXPECT_EQ(textColumns(" "), std::vector<uint8_t>(6, 0));
}

TEST(GraphLayout, LogQ8ByHand) {
  EXPECT_EQ(logQ8(0), 0u);
  EXPECT_EQ(logQ8(1), 0u);
  EXPECT_EQ(logQ8(2), 256u);
  EXPECT_EQ(logQ8(3), 384u);               // 1 + 1/2
  EXPECT_EQ(logQ8(257), 8u * 256 + 1);     // 8 + 1/256
  EXPECT_EQ(logQ8(1000), 9u * 256 + 244);  // 9 + floor(488 / 512 * 256)
  EXPECT_EQ(logQ8(0xFFFFFFFFu), 31u * 256 + 255);
  for (uint32_t v = 0; v < 5000; ++v) EXPECT_EQ(logQ8(v), test::log256(v)) << v;
}

TEST(GraphLayout, LabelsFromTheLumaChannelStats) {
  HistogramData h;
  h.bins = 4;
  h.channels = "rl";
  h.counts = {9, 3, 9, 0, 9, 0, 9, 1};  // l: 3, 0, 0, 1
  std::vector<ChannelStats> stats(2);
  stats[0].channel = 'r';
  stats[0].count = 36;
  stats[1].channel = 'l';
  stats[1].count = 4;
  stats[1].mean = 118.3;
  stats[1].p10 = 40;
  stats[1].p50 = 120;
  stats[1].p90 = 200;
  stats[1].msv = 1.25;  // EV log2(2.5 / 1.25) = +1
  stats[1].clip_low = 0.75;
  stats[1].clip_high = 0.25;
  const GraphLabels l = graphLabels(h, stats);
  EXPECT_EQ(l.caption, "L MEAN 118.3 P10 40 P50 120 P90 200 EV +1.0 CLIP 75.00%/25.00%");
  EXPECT_EQ(l.clipped_low, 3u);
  EXPECT_EQ(l.clipped_high, 1u);
  EXPECT_EQ(l.total, 4u);
  // Camera health: the picture's state leads the caption.
  HealthFigures health;
  EXPECT_EQ(graphLabels(h, stats, nullptr, &health).caption, "OK " + l.caption);
  health.frozen = true;
  EXPECT_EQ(graphLabels(h, stats, nullptr, &health).caption, "FROZEN " + l.caption);
  health.black_picture = true;
  EXPECT_EQ(graphLabels(h, stats, nullptr, &health).caption, "BLACK " + l.caption);
  stats[1].count = 0;
  EXPECT_NE(graphLabels(h, stats).caption.find("EV - "), std::string::npos);
  // Markers: at least 3 rows when anything clips, none when nothing does.
  GraphLabels few{"X", 1, 0, 1000000};
  const GraphLayout layout = graphLayout({}, 100, 100, few);
  EXPECT_EQ(layout.strip_rows, 9);
  EXPECT_EQ(layout.clip_rows_low, 3);
  EXPECT_EQ(layout.clip_rows_high, 0);
  EXPECT_EQ(graphLayout(kPlainGraph, 100, 100, few).strip_rows, 0);
}

}  // namespace
}  // namespace esf::graph_modes_test
