// What the gles and cpu backends share, checked against figures worked out by hand from known
// inputs rather than against each other: the 256-value histogram and the stats taken from it,
// integer BT.709 luma, clip fractions at fewer bins, msv and ev_hint, the graph scale formula,
// and the pattern's seq / ts_ns / size fields. The definitions are docs/output-formats.md's.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "capture/still_image.hpp"
#include "tests/apps/esframe/run_test_util.hpp"

namespace esf {
namespace {

using test::OrderedJson;
using test::Rgb;

// What one channel must show: the pixel count of each value present, and the figures.
struct ChannelExpectation {
  std::map<int, uint64_t> values;  // 8-bit value -> pixels
  uint32_t min, max, p1, p10, p50, p90, p99;
  double mean, msv;
};

void expectChannel(const OrderedJson& j, char channel, const ChannelExpectation& want,
                   uint64_t pixels) {
  const std::string c(1, channel);
  SCOPED_TRACE("channel " + c);
  const OrderedJson& hist = j["hist"][c];
  ASSERT_EQ(hist.size(), 256u);
  for (int v = 0; v < 256; ++v) {
    const auto it = want.values.find(v);
    EXPECT_EQ(hist[size_t(v)].get<uint64_t>(), it == want.values.end() ? 0 : it->second)
        << "value " << v;
  }
  const OrderedJson& s = j["stats"][c];
  EXPECT_EQ(s["pixels"].get<uint64_t>(), pixels);
  EXPECT_EQ(s["min"].get<uint32_t>(), want.min);
  EXPECT_EQ(s["max"].get<uint32_t>(), want.max);
  EXPECT_EQ(s["p1"].get<uint32_t>(), want.p1);
  EXPECT_EQ(s["p10"].get<uint32_t>(), want.p10);
  EXPECT_EQ(s["p50"].get<uint32_t>(), want.p50);
  EXPECT_EQ(s["p90"].get<uint32_t>(), want.p90);
  EXPECT_EQ(s["p99"].get<uint32_t>(), want.p99);
  EXPECT_EQ(s["mean"].get<double>(), want.mean);
  EXPECT_EQ(s["msv"].get<double>(), want.msv);
  // No value is 0 or 255 in these images: nothing in the end bins of 256.
  EXPECT_EQ(s["clip_low"].get<double>(), 0.0);
  EXPECT_EQ(s["clip_high"].get<double>(), 0.0);
}

// The r, g, b and l channels, and ffmpeg's signalstats names of l: YMIN YLOW YAVG YHIGH YMAX are
// its min, p10, mean, p90 and max.
void expectChannels(const OrderedJson& j, const std::array<ChannelExpectation, 4>& rgbl,
                    uint64_t pixels) {
  for (size_t c = 0; c < 4; ++c) expectChannel(j, "rgbl"[c], rgbl[c], pixels);
  const ChannelExpectation& l = rgbl[3];
  EXPECT_EQ(j["YMIN"].get<double>(), l.min);
  EXPECT_EQ(j["YLOW"].get<double>(), l.p10);
  EXPECT_EQ(j["YAVG"].get<double>(), l.mean);
  EXPECT_EQ(j["YHIGH"].get<double>(), l.p90);
  EXPECT_EQ(j["YMAX"].get<double>(), l.max);
}

std::vector<OrderedJson> runBackend(const std::vector<std::string>& args, const char* backend) {
  std::vector<std::string> a = args;
  a.insert(a.end(), {"--backend", backend});
  return test::parseJsonLines(test::runOk(a));
}

// A flat 30x20 image of (200, 100, 50). L = (13933*200 + 46871*100 + 4732*50 + 32768) >> 16 =
// 7743068 >> 16 = 118. Every percentile, min, max and mean is the value itself. msv regions
// (0-50, 51-101, 102-153, 154-204, 205-255): R 200 -> region 4, G 100 -> 2, B 50 -> 1, L 118
// -> 3, so msv = 4, 2, 1, 3 and ev_hint = log2(2.5 / 3).
TEST(RunSharedExpectations, FlatImage) {
  test::ScratchDir dir;
  const std::string path = (dir.path / "flat.ppm").string();
  test::writePpm(path, 30, 20, [](int, int) { return Rgb{200, 100, 50}; });
  auto flat = [](int v, double msv) {
    return ChannelExpectation{{{v, 600}},  uint32_t(v), uint32_t(v), uint32_t(v), uint32_t(v),
                              uint32_t(v), uint32_t(v), uint32_t(v), double(v),   msv};
  };
  for (const char* backend : {"gles", "cpu", "reference"}) {
    SCOPED_TRACE(backend);
    std::vector<OrderedJson> lines = runBackend({"run", "--source", path}, backend);
    ASSERT_EQ(lines.size(), 1u);
    const OrderedJson& j = lines[0];
    EXPECT_EQ(j["seq"], 0);
    EXPECT_EQ(j["ts_ns"], 0);
    EXPECT_EQ(j["source"], path);
    EXPECT_EQ(j["format"], "RGBA32");
    EXPECT_EQ(j["width"], 30);
    EXPECT_EQ(j["height"], 20);
    EXPECT_EQ(j["dropped"], 0);
    EXPECT_EQ(j["bins"], 256);
    expectChannels(j, {flat(200, 4), flat(100, 2), flat(50, 1), flat(118, 3)}, 600);
    EXPECT_EQ(j["ev_hint"].get<double>(), std::log2(2.5 / 3.0));

    // At 4 bins (value v in bin v * 4 / 256): R 200 is in the top bin, B 50 in the bottom one,
    // G 100 and L 118 in bin 1.
    lines = runBackend({"run", "--source", path, "--histogram", "bins=4"}, backend);
    ASSERT_EQ(lines.size(), 1u);
    const OrderedJson& k = lines[0];
    EXPECT_EQ(k["hist"]["r"], OrderedJson::array({0, 0, 0, 600}));
    EXPECT_EQ(k["hist"]["g"], OrderedJson::array({0, 600, 0, 0}));
    EXPECT_EQ(k["hist"]["b"], OrderedJson::array({600, 0, 0, 0}));
    EXPECT_EQ(k["hist"]["l"], OrderedJson::array({0, 600, 0, 0}));
    const double clip[4][2] = {{0, 1}, {0, 0}, {1, 0}, {0, 0}};  // r g b l: low, high
    const double mean[4] = {200, 100, 50, 118};
    for (int c = 0; c < 4; ++c) {
      const OrderedJson& s = k["stats"][std::string(1, "rgbl"[c])];
      EXPECT_EQ(s["clip_low"].get<double>(), clip[c][0]) << "rgbl"[c];
      EXPECT_EQ(s["clip_high"].get<double>(), clip[c][1]) << "rgbl"[c];
      // The value stats still come from the 256-value histogram.
      EXPECT_EQ(s["mean"].get<double>(), mean[c]) << "rgbl"[c];
    }
  }
}

// One channel of the split image below: `left` on 130 pixels, `right` on 270.
ChannelExpectation splitChannel(int left, int right, int left_weight, int right_weight) {
  const uint32_t low = uint32_t(std::min(left, right)), high = uint32_t(std::max(left, right));
  const uint64_t low_pixels = left < right ? 130 : 270;
  const auto percentile = [&](uint64_t rank) { return rank <= low_pixels ? low : high; };
  return {{{left, 130}, {right, 270}},
          low,
          high,
          percentile(4),
          percentile(40),
          percentile(200),
          percentile(360),
          percentile(396),
          (left * 130.0 + right * 270.0) / 400,
          (left_weight * 130.0 + right_weight * 270.0) / 400};
}

// A 40x10 image split at column 13: 130 pixels of (10, 240, 30) on the left, 270 of
// (250, 5, 128) on the right. L: (13933*10 + 46871*240 + 4732*30 + 32768) >> 16 = 176 and
// (13933*250 + 46871*5 + 4732*128 + 32768) >> 16 = 66. Percentile ranks lrint(400 * N / 100):
// 4, 40, 200, 360, 396; the first value whose running count reaches the rank. msv weights
// (region + 1): 10 -> 1, 250 -> 5, 240 -> 5, 5 -> 1, 30 -> 1, 128 -> 3, 176 -> 4, 66 -> 2.
TEST(RunSharedExpectations, TwoColourSplit) {
  test::ScratchDir dir;
  const std::string path = (dir.path / "split.ppm").string();
  test::writePpm(path, 40, 10, [](int x, int) {
    return x < 13 ? Rgb{10, 240, 30} : Rgb{250, 5, 128};
  });
  // Each channel: (value left, value right, msv weight left, msv weight right).
  const ChannelExpectation r = splitChannel(10, 250, 1, 5), g = splitChannel(240, 5, 5, 1),
                           b = splitChannel(30, 128, 1, 3), l = splitChannel(176, 66, 4, 2);
  for (const char* backend : {"gles", "cpu", "reference"}) {
    SCOPED_TRACE(backend);
    std::vector<OrderedJson> lines = runBackend({"run", "--source", path}, backend);
    ASSERT_EQ(lines.size(), 1u);
    const OrderedJson& j = lines[0];
    expectChannels(j, {r, g, b, l}, 400);
    EXPECT_EQ(j["ev_hint"].get<double>(), std::log2(2.5 / 2.65));

    // At 8 bins (v * 8 / 256): 10, 5, 30 in bin 0; 250, 240 in bin 7; 128 in 4; 176 in 5;
    // 66 in 2. Clip fractions are the end bins' shares of 400 pixels.
    lines = runBackend({"run", "--source", path, "--histogram", "bins=8,channels=gbl"}, backend);
    ASSERT_EQ(lines.size(), 1u);
    const OrderedJson& k = lines[0];
    EXPECT_EQ(k["hist"]["g"], OrderedJson::array({270, 0, 0, 0, 0, 0, 0, 130}));
    EXPECT_EQ(k["hist"]["b"], OrderedJson::array({130, 0, 0, 0, 270, 0, 0, 0}));
    EXPECT_EQ(k["hist"]["l"], OrderedJson::array({0, 0, 270, 0, 0, 130, 0, 0}));
    EXPECT_EQ(k["stats"]["g"]["clip_low"].get<double>(), 270.0 / 400);
    EXPECT_EQ(k["stats"]["g"]["clip_high"].get<double>(), 130.0 / 400);
    EXPECT_EQ(k["stats"]["b"]["clip_low"].get<double>(), 130.0 / 400);
    EXPECT_EQ(k["stats"]["b"]["clip_high"].get<double>(), 0.0);
    EXPECT_EQ(k["stats"]["l"]["clip_low"].get<double>(), 0.0);
    EXPECT_EQ(k["stats"]["l"]["clip_high"].get<double>(), 0.0);
    EXPECT_FALSE(k["stats"].contains("r"));
  }
}

// The graph's scale, max(1 / max_count, 0.2 * bins / pixels) (seed part 2), seen in the graph
// PNG: an L-only graph one pixel per bin wide and 100 rows high lights row r (from the bottom)
// of bin k when count_k * scale * 100 > r + 0.5. Grey pixels have L = their value exactly.
struct GraphCase {
  const char* name;
  int bins;
  std::vector<std::pair<int, int>> runs;  // (grey value, pixels), filled in raster order
  std::vector<int> lit_rows;              // per bin, rows lit from the bottom
};

TEST(RunSharedExpectations, GraphScaleFormula) {
  const GraphCase cases[] = {
      // 400 pixels at 4 bins: 300 in bin 0, 60 in bin 2 (150), 40 in bin 3 (230). 1 / 300 beats
      // 0.2 * 4 / 400 = 1 / 500: bars 100, 60 / 300 * 100 = 20 and 40 / 300 * 100 = 13.3 rows.
      {"1/max wins", 4, {{10, 300}, {150, 60}, {230, 40}}, {100, 0, 20, 13}},
      // 400 pixels at 16 bins: 390 in bin 0, 10 in bin 12 (200). 0.2 * 16 / 400 = 1 / 125
      // beats 1 / 390: bin 0 clips at 100 rows, bin 12 gets 10 / 125 * 100 = 8.
      {"0.2 bins / pixels wins",
       16,
       {{10, 390}, {200, 10}},
       {100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0}},
  };
  for (const GraphCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<uint8_t> greys;
    for (auto [value, pixels] : c.runs) greys.insert(greys.end(), size_t(pixels), uint8_t(value));
    ASSERT_EQ(greys.size(), 400u);
    for (const char* backend : {"gles", "cpu", "reference"}) {
      SCOPED_TRACE(backend);
      test::ScratchDir dir;
      const std::string path = (dir.path / "greys.ppm").string();
      test::writePpm(path, 20, 20, [&](int x, int y) {
        const uint8_t v = greys[size_t(y * 20 + x)];
        return Rgb{v, v, v};
      });
      const std::string graph_spec =
          "png:" + dir.path.string() + ",graph=" + std::to_string(c.bins) + "x100,decor=off";
      test::runOk({"run", "--source", path, "--backend", backend, "--histogram",
                   "bins=" + std::to_string(c.bins) + ",channels=l", "--output", graph_spec});
      Result<RgbaImage> graph = loadStillImage((dir.path / "graph-00000000.png").string());
      ASSERT_TRUE(graph) << graph.error().message;
      ASSERT_EQ(graph->width, c.bins);
      ASSERT_EQ(graph->height, 100);
      for (int k = 0; k < c.bins; ++k) {
        for (int y = 0; y < 100; ++y) {
          const int row = 99 - y;
          const uint8_t want = row < c.lit_rows[size_t(k)] ? 255 : 0;  // L alone: white
          const uint8_t* px = graph->at(k, y);
          ASSERT_TRUE(px[0] == want && px[1] == want && px[2] == want)
              << "bin " << k << " row " << row << " is " << int(px[0]) << "," << int(px[1]) << ","
              << int(px[2]) << ", want " << int(want);
        }
      }
    }
  }
}

// The synthetic pattern's clock: frame i has seq i and ts_ns = floor(i * 1e9 / fps), 30 fps
// unless asked; sizes are the processed image's (after resize), and every channel counts
// width * height pixels.
TEST(RunSharedExpectations, PatternSequenceClockAndSize) {
  struct Case {
    std::vector<std::string> extra;
    uint64_t fps;
  };
  for (const Case& c : {Case{{}, 30}, Case{{"--fps", "25"}, 25}}) {
    for (const char* backend : {"gles", "cpu", "reference"}) {
      SCOPED_TRACE(std::string(backend) + " fps " + std::to_string(c.fps));
      std::vector<std::string> args = {"run",      "--frames", "5",           "--size", "64x48",
                                       "--resize", "16x12",    "--histogram", "bins=32"};
      args.insert(args.end(), c.extra.begin(), c.extra.end());
      const std::vector<OrderedJson> lines = runBackend(args, backend);
      ASSERT_EQ(lines.size(), 5u);
      for (uint64_t i = 0; i < lines.size(); ++i) {
        const OrderedJson& j = lines[i];
        EXPECT_EQ(j["seq"].get<uint64_t>(), i);
        EXPECT_EQ(j["ts_ns"].get<uint64_t>(), i * 1000000000ull / c.fps) << "frame " << i;
        EXPECT_EQ(j["source"], "pattern");
        EXPECT_EQ(j["width"], 16);
        EXPECT_EQ(j["height"], 12);
        EXPECT_EQ(j["dropped"], 0);
        for (const char* ch : {"r", "g", "b", "l"}) {
          uint64_t total = 0;
          for (const OrderedJson& n : j["hist"][ch]) total += n.get<uint64_t>();
          EXPECT_EQ(total, 16u * 12u) << ch;
          EXPECT_EQ(j["stats"][ch]["pixels"].get<uint64_t>(), 16u * 12u) << ch;
        }
      }
    }
  }
}

}  // namespace
}  // namespace esf
