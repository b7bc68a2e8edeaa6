// The graph's raw source end to end: `esframe run` on an 8-bit Bayer file with
// --output png:...,source=raw draws a PNG whose columns are the JSONL raw histograms of the same
// run: each parade panel in its site's colour, each bar as high as the scale stage's rule
// (scale = bins / min(maxCount * bins, 5 * pixels)) makes it, worked out here in integers; the
// GLES and CPU backends draw the same PNG. Bad combinations are one line.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "capture/still_image.hpp"
#include "tests/apps/esframe/run_test_util.hpp"

namespace esf::test {
namespace {

constexpr int kFrameW = 33, kFrameH = 17, kBins = 16, kGraphW = 131, kGraphH = 61;

struct GraphRun {
  OrderedJson line;
  RgbaImage graph;
};

GraphRun runRawGraph(const std::string& raw_file, const std::string& backend) {
  ScratchDir dir;
  const CommandResult r = runEsframe(
      {"run", "--source", raw_file, "--size",
       std::to_string(kFrameW) + "x" + std::to_string(kFrameH), "--format", "SRGGB8", "--backend",
       backend, "--histogram", "bins=" + std::to_string(kBins), "--output", "jsonl", "--output",
       "png:" + dir.path.string() + ",graph=131x61,mode=parade,decor=off,source=raw"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  GraphRun run;
  const std::vector<OrderedJson> lines = parseJsonLines(r.out);
  EXPECT_EQ(lines.size(), 1u);
  if (!lines.empty()) run.line = lines[0];
  Result<RgbaImage> graph = loadStillImage((dir.path / "graph-00000000.png").string());
  EXPECT_TRUE(graph) << graph.error().message;
  if (graph) run.graph = graph.value();
  return run;
}

TEST(RunBayerGraph, RawSourceColumnsAreTheJsonlRawHistograms) {
  ScratchDir dir;
  const std::string path = (dir.path / "f.raw").string();
  {
    std::mt19937 rng(14);
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < kFrameW * kFrameH; ++i) out.put(char(rng() % 200));  // none clipped
  }
  const GraphRun gles = runRawGraph(path, "gles");
  const GraphRun cpu = runRawGraph(path, "cpu");
  ASSERT_EQ(gles.graph.width, kGraphW);
  ASSERT_EQ(gles.graph.height, kGraphH);
  EXPECT_TRUE(gles.graph == cpu.graph) << "the GLES and CPU raw graphs differ";
  // Site colours: R red, Gr green 160, Gb green 96, B blue.
  const uint8_t kColour[4][3] = {{255, 0, 0}, {0, 160, 0}, {0, 96, 0}, {0, 0, 255}};
  const char* kSites[4] = {"raw_r", "raw_gr", "raw_gb", "raw_b"};
  for (int site = 0; site < 4; ++site) {
    SCOPED_TRACE(kSites[site]);
    const std::vector<uint64_t> counts = gles.line[kSites[site]].get<std::vector<uint64_t>>();
    ASSERT_EQ(counts.size(), size_t(kBins));
    uint64_t pixels = 0, max_count = 0;
    for (uint64_t n : counts) pixels += n, max_count = std::max(max_count, n);
    const uint64_t den = std::min(max_count * kBins, 5 * pixels);
    const int left = site * kGraphW / 4, width = (site + 1) * kGraphW / 4 - left;
    for (int px = 0; px < width; ++px) {
      const uint64_t n = counts[size_t((2 * px + 1) * kBins / (2 * width))];
      int want = 0;  // rows r lit: n * bins / den * rows > r + 1/2
      while (want < kGraphH && 2 * n * kBins * kGraphH > uint64_t(2 * want + 1) * den) ++want;
      int height = 0;
      for (int y = kGraphH - 1; y >= 0; --y) {
        const uint8_t* p = gles.graph.at(left + px, y);
        if (p[0] != kColour[site][0] || p[1] != kColour[site][1] || p[2] != kColour[site][2]) break;
        ++height;
      }
      EXPECT_EQ(height, want) << "column " << left + px << ", count " << n;
    }
  }
}

TEST(RunBayerGraph, BadCombinationsAreOneLine) {
  ScratchDir dir;
  // A non-Bayer run has no raw statistics to draw: a runtime error before any file is written.
  CommandResult r = runEsframe({"run", "--frames", "1", "--backend", "cpu", "--output",
                                "png:" + dir.path.string() + ",source=raw"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(lineCount(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("source=raw needs a Bayer frame"), std::string::npos) << r.err;
  // The library names a Bayer pixel format; the CLI names its flag.
  EXPECT_NE(r.err.find("(a --format such as SRGGB10)"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path / "graph-00000000.png"));
  for (const char* spec :
       {"png:/tmp,source=raw,mode=luma", "png:/tmp,mode=luma,source=raw", "png:/tmp,source=sensor",
        "drm:source=raw,mode=luma", "drm:source=sensor"}) {
    SCOPED_TRACE(spec);
    r = runEsframe({"run", "--frames", "1", "--output", spec});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("source"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace esf::test
