// The graph's raw source (source=raw): a Bayer frame's per-site histograms R, Gr, Gb, B drawn by
// the GPU renderer from CPU counts (GraphRenderer::renderCounts) and by the CPU reference, both
// against an independent rasterizer written here from graph_layout.hpp's description: its own
// bin and panel search, integer bar heights, and the raw colours composed per component.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "core/outputs/graph_renderer.hpp"
#include "tests/core/outputs/graph_test_util.hpp"

// A namespace of its own: a test executable's sources compile together in unity batches.
namespace esf::raw_graph_test {
namespace {

constexpr int kBins = 13;
constexpr int kWidth = 131;  // odd, not a multiple of the bins or the 4 parade panels
constexpr int kHeight = 61;
const uint32_t kScaleDen[4] = {32, 64, 16, 128};  // scale = 1 / den: exact in float

RawHistogramData randomRaw(uint32_t seed) {
  std::mt19937 rng(seed);
  RawHistogramData raw;
  raw.bins = kBins;
  raw.bit_depth = 10;
  raw.white = 1023;
  for (size_t site = 0; site < 4; ++site) {
    for (int b = 0; b < kBins; ++b) raw.counts[site].push_back(rng() % 140);
    for (uint32_t n : raw.counts[site]) raw.pixels[site] += n;
  }
  raw.counts[2][5] = raw.counts[1][5] + 30;  // a bin where Gb stands above Gr
  return raw;
}

std::vector<float> fixedScales() {
  std::vector<float> s;
  for (uint32_t d : kScaleDen) s.push_back(1.0f / float(d));
  return s;
}

// No decorations: the bars alone. Sites in CfaSite order R, Gr, Gb, B.
RgbaImage independentRawGraph(const RawHistogramData& raw, GraphMode mode, bool log) {
  RgbaImage img(kWidth, kHeight);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const int r = kHeight - 1 - y;
      int left = 0, right = kWidth, first = 0, last = 3;
      if (mode == GraphMode::kParade) {
        for (int k = 0; k < 4; ++k)
          if (k * kWidth / 4 <= x && x < (k + 1) * kWidth / 4) {
            left = k * kWidth / 4;
            right = (k + 1) * kWidth / 4;
            first = last = k;
          }
      }
      const int lx = x - left, pw = right - left;
      int bin = 0;
      while (bin + 1 < kBins && 2 * (bin + 1) * pw <= (2 * lx + 1) * kBins) ++bin;
      bool lit[4] = {false, false, false, false};
      for (int c = first; c <= last; ++c) {
        const uint64_t n = raw.counts[size_t(c)][size_t(bin)];
        const uint64_t max =
            *std::max_element(raw.counts[size_t(c)].begin(), raw.counts[size_t(c)].end());
        lit[c] = log ? uint64_t(2 * r + 1) * test::log256(max + 1) <
                           uint64_t(2 * kHeight) * test::log256(n + 1)
                     : uint64_t(2 * r + 1) * kScaleDen[c] < 2 * n * kHeight;
      }
      uint8_t* p = img.at(x, y);
      p[0] = lit[0] ? 255 : 0;
      p[1] = uint8_t(std::min(255, (lit[1] ? 160 : 0) + (lit[2] ? 96 : 0)));
      p[2] = lit[3] ? 255 : 0;
      p[3] = 255;
    }
  }
  return img;
}

using test::countDiffs;

TEST(RawGraph, HistogramInterleavesTheSitesInCfaOrder) {
  const RawHistogramData raw = randomRaw(7);
  const HistogramData h = rawGraphHistogram(raw);
  ASSERT_EQ(h.channels, "rgGb");
  ASSERT_EQ(h.counts.size(), size_t(kBins) * 4);
  for (int b = 0; b < kBins; ++b)
    for (int site = 0; site < 4; ++site)
      EXPECT_EQ(h.counts[size_t(b * 4 + site)], raw.counts[size_t(site)][size_t(b)]);
}

TEST(RawGraph, GreenSitesAreToldApart) {
  // R 1, Gr 2, B 4, Gb 8 (graphChannelBit of "rgGb").
  EXPECT_EQ(graphChannelBit('G'), 8u);
  EXPECT_EQ(rawGraphColour(2), (std::array<uint8_t, 4>{0, 160, 0, 255}));
  EXPECT_EQ(rawGraphColour(8), (std::array<uint8_t, 4>{0, 96, 0, 255}));
  EXPECT_EQ(rawGraphColour(10), (std::array<uint8_t, 4>{0, 255, 0, 255}));
  EXPECT_EQ(rawGraphColour(15), (std::array<uint8_t, 4>{255, 255, 255, 255}));
  EXPECT_EQ(rawGraphColour(0), (std::array<uint8_t, 4>{0, 0, 0, 255}));
}

TEST(RawGraph, GpuAndCpuReferenceDrawTheIndependentRaster) {
  test::glContext();
  const RawHistogramData raw = randomRaw(2026);
  const HistogramData h = rawGraphHistogram(raw);
  for (GraphMode mode : {GraphMode::kOverlay, GraphMode::kParade}) {
    for (bool log : {false, true}) {
      SCOPED_TRACE(std::string(mode == GraphMode::kParade ? "parade" : "overlay") +
                   (log ? " log" : " linear"));
      const GraphOptions options{mode, log, false, GraphSource::kRaw};
      const RgbaImage want = independentRawGraph(raw, mode, log);
      Result<GraphRenderer> g = GraphRenderer::create(h.bins, h.channels, kWidth, kHeight, options);
      ASSERT_TRUE(g) << g.error().message;
      test::poisonTarget(g.value());
      ASSERT_TRUE(g->renderCounts(h, fixedScales()));
      Result<RgbaImage> gpu = g->read();
      ASSERT_TRUE(gpu) << gpu.error().message;
      EXPECT_EQ(countDiffs(want, gpu.value(), "GPU"), 0);
      EXPECT_EQ(countDiffs(want, renderGraphReference(h, fixedScales(), kWidth, kHeight, options),
                           "CPU reference"),
                0);
    }
  }
  // The overlay shows Gb alone where it stands above Gr (bin 5): dark green.
  const RgbaImage overlay = independentRawGraph(raw, GraphMode::kOverlay, false);
  bool gb_alone = false;
  for (int y = 0; y < kHeight; ++y) gb_alone |= overlay.at(5 * kWidth / kBins + 5, y)[1] == 96;
  EXPECT_TRUE(gb_alone);
}

TEST(RawGraph, DecoratedGpuEqualsTheCpuReference) {
  test::glContext();
  RawHistogramData raw = randomRaw(11);
  raw.clipped = {3, 0, 1, 40};
  const HistogramData h = rawGraphHistogram(raw);
  const GraphLabels labels = rawGraphLabels(raw);
  EXPECT_EQ(labels.caption.rfind("RAW R/GR/GB/B CLIP ", 0), 0u) << labels.caption;
  EXPECT_EQ(labels.total, raw.pixels[0] + raw.pixels[1] + raw.pixels[2] + raw.pixels[3]);
  const GraphOptions options{GraphMode::kParade, false, true, GraphSource::kRaw};
  Result<GraphRenderer> g = GraphRenderer::create(h.bins, h.channels, 257, 64, options);
  ASSERT_TRUE(g) << g.error().message;
  test::poisonTarget(g.value());
  const std::vector<float> scales = rawGraphScales(raw);
  ASSERT_TRUE(g->renderCounts(h, scales, labels));
  Result<RgbaImage> gpu = g->read();
  ASSERT_TRUE(gpu) << gpu.error().message;
  EXPECT_EQ(countDiffs(renderGraphReference(h, scales, 257, 64, options, labels), gpu.value(),
                       "decorated"),
            0);
}

}  // namespace
}  // namespace esf::raw_graph_test
