// `esframe run` on Bayer raw files (--size/--format), end to end: the raw statistics in JSONL and
// CSV against per-site histograms counted here from the values the test wrote (its own packers,
// from the V4L2 and MIPI CSI-2 layouts), the three backends agreeing on every figure, packed
// 10P/12P frames through the whole run, --dump-raw giving back the input bytes, and bad --raw
// values or frames as one line with a documented exit code.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>

#include "tests/apps/esframe/run_test_util.hpp"

namespace esf::test {
namespace {

namespace fs = std::filesystem;

struct Layout {
  const char* format;
  const char* order;  // the 2x2 block in reading order
  int bits;
  int group;  // values per packed group: 1 (8 bit or 16-bit words), 4 (10P), 2 (12P)
};

// Appends one row of values in the layout's bytes.
void packRow(const Layout& l, const uint16_t* v, int width, std::vector<uint8_t>& out) {
  for (int x = 0; x < width; x += l.group) {
    if (l.bits == 8) {
      out.push_back(uint8_t(v[x]));
    } else if (l.group == 1) {  // a little-endian word
      out.push_back(uint8_t(v[x] & 0xff));
      out.push_back(uint8_t(v[x] >> 8));
    } else {  // CSI-2: the high bytes, then the low bits, pixel 0 lowest
      const int low = l.bits - 8;
      unsigned lows = 0;
      for (int i = 0; i < l.group; ++i) {
        out.push_back(uint8_t(v[x + i] >> low));
        lows |= unsigned(v[x + i] & ((1 << low) - 1)) << (i * low);
      }
      out.push_back(uint8_t(lows));
    }
  }
}

struct Levels {
  uint32_t black, white;
};

// The expected raw fields of one frame, counted here: s = clamp(v, black, white) - black,
// bin = s * bins / (white - black + 1).
struct SiteCounts {
  std::vector<std::vector<uint32_t>> bins;  // r, gr, gb, b
  std::vector<uint64_t> pixels, clipped, crushed;
};
SiteCounts countSites(const Layout& l, const std::vector<uint16_t>& v, int w, int h, Levels lv,
                      int bins) {
  SiteCounts c;
  c.bins.assign(4, std::vector<uint32_t>(size_t(bins), 0));
  c.pixels.assign(4, 0), c.clipped.assign(4, 0), c.crushed.assign(4, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const char colour = l.order[(y & 1) * 2 + (x & 1)];
      const char other = l.order[(y & 1) * 2 + ((x + 1) & 1)];
      const size_t site = colour == 'R' ? 0 : colour == 'B' ? 3 : other == 'R' ? 1 : 2;
      const uint32_t value = v[size_t(y) * size_t(w) + size_t(x)];
      const uint32_t s = std::clamp(value, lv.black, lv.white) - lv.black;
      ++c.bins[site][uint64_t(s) * uint64_t(bins) / (lv.white - lv.black + 1)];
      ++c.pixels[site];
      c.clipped[site] += value >= lv.white;
      c.crushed[site] += value <= lv.black;
    }
  return c;
}

struct RawFile {
  fs::path path;
  std::vector<std::vector<uint16_t>> frames;
  std::vector<std::vector<uint8_t>> bytes;
};

RawFile writeRawFile(const fs::path& path, const Layout& l, int w, int h, int frames,
                     uint32_t seed) {
  std::mt19937 rng(seed);
  RawFile f{path, {}, {}};
  std::ofstream out(path, std::ios::binary);
  for (int i = 0; i < frames; ++i) {
    std::vector<uint16_t> v(size_t(w) * size_t(h));
    for (auto& x : v) x = uint16_t(rng() & ((1u << l.bits) - 1));
    std::vector<uint8_t> b;
    for (int y = 0; y < h; ++y) packRow(l, &v[size_t(y) * size_t(w)], w, b);
    out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
    f.frames.push_back(std::move(v));
    f.bytes.push_back(std::move(b));
  }
  return f;
}

const char* kSites[] = {"r", "gr", "gb", "b"};

void expectRawFields(const OrderedJson& line, const SiteCounts& want, const Layout& l, Levels lv) {
  EXPECT_EQ(line["format"], l.format);
  EXPECT_EQ(line["raw_bits"], l.bits);
  EXPECT_EQ(line["raw_black"], lv.black);
  EXPECT_EQ(line["raw_white"], lv.white);
  for (size_t s = 0; s < 4; ++s) {
    SCOPED_TRACE(kSites[s]);
    EXPECT_EQ(line[std::string("raw_") + kSites[s]].get<std::vector<uint32_t>>(), want.bins[s]);
    const double pixels = double(want.pixels[s]);
    EXPECT_DOUBLE_EQ(line["raw_clipped"][kSites[s]].get<double>(), want.clipped[s] / pixels);
    EXPECT_DOUBLE_EQ(line["raw_crushed"][kSites[s]].get<double>(), want.crushed[s] / pixels);
  }
}

// Everything but the timings, which differ between backends.
OrderedJson withoutTimings(OrderedJson line) {
  line.erase("timing_ms");
  line.erase("timing_clock");
  return line;
}

struct Case {
  Layout layout;
  int w, h, bins;
  std::vector<std::string> raw_option;  // {} or {"--raw", "..."}
  Levels levels;
};

TEST(RunBayer, RawStatisticsEqualCountsOfTheWrittenValuesOnEveryBackend) {
  ScratchDir dir;
  const Case cases[] = {
      {{"SRGGB10", "RGGB", 10, 1},
       34,
       18,
       64,
       {"--raw", "black=64,white=1000,wb=300,200"},
       {64, 1000}},
      {{"SGBRG8", "GBRG", 8, 1}, 7, 5, 256, {}, {0, 255}},
      {{"SGRBG10P", "GRBG", 10, 4}, 36, 6, 32, {"--raw", "black=16"}, {16, 1023}},
      {{"SBGGR12P", "BGGR", 12, 2}, 22, 7, 100, {"--raw", "white=4000,wb=256,512"}, {0, 4000}},
      {{"SBGGR16", "BGGR", 16, 1}, 10, 4, 256, {"--raw", "black=4096"}, {4096, 65535}},
  };
  uint32_t seed = 7;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.layout.format);
    const RawFile file = writeRawFile(dir.path / (std::string(c.layout.format) + ".raw"), c.layout,
                                      c.w, c.h, 2, seed++);
    std::vector<OrderedJson> first;
    for (const char* backend : {"reference", "cpu", "gles"}) {
      SCOPED_TRACE(backend);
      std::vector<std::string> args = {"run",
                                       "--source",
                                       file.path,
                                       "--size",
                                       std::to_string(c.w) + "x" + std::to_string(c.h),
                                       "--format",
                                       c.layout.format,
                                       "--backend",
                                       backend,
                                       "--histogram",
                                       "bins=" + std::to_string(c.bins)};
      args.insert(args.end(), c.raw_option.begin(), c.raw_option.end());
      const std::vector<OrderedJson> lines = parseJsonLines(runOk(args));
      ASSERT_EQ(lines.size(), 2u);
      for (size_t i = 0; i < lines.size(); ++i)
        expectRawFields(lines[i], countSites(c.layout, file.frames[i], c.w, c.h, c.levels, c.bins),
                        c.layout, c.levels);
      if (first.empty()) {
        first = lines;
      } else {
        for (size_t i = 0; i < lines.size(); ++i)
          EXPECT_EQ(withoutTimings(lines[i]), withoutTimings(first[i]));
      }
    }
  }
}

TEST(RunBayer, CsvCarriesTheSameRawFields) {
  ScratchDir dir;
  const Layout l{"SRGGB12", "RGGB", 12, 1};
  const RawFile file = writeRawFile(dir.path / "f.raw", l, 8, 6, 1, 99);
  const std::vector<std::string> common = {"run", "--source", file.path,   "--size",
                                           "8x6", "--format", "SRGGB12",   "--backend",
                                           "cpu", "--raw",    "white=3000"};
  std::vector<std::string> csv_args = common;
  csv_args.insert(csv_args.end(), {"--output", "csv:bins"});
  const std::string csv = runOk(csv_args);
  const size_t eol = csv.find('\n');
  ASSERT_NE(eol, std::string::npos);
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string f; std::getline(in, f, ',');) out.push_back(f);
    return out;
  };
  const std::vector<std::string> header = split(csv.substr(0, eol));
  const std::vector<std::string> row =
      split(csv.substr(eol + 1, csv.find('\n', eol + 1) - eol - 1));
  ASSERT_EQ(header.size(), row.size());
  auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return it == header.end() ? std::string() : row[size_t(it - header.begin())];
  };
  const SiteCounts want = countSites(l, file.frames[0], 8, 6, {0, 3000}, 256);
  EXPECT_EQ(column("raw_bits"), "12");
  EXPECT_EQ(column("raw_white"), "3000");
  for (size_t s = 0; s < 4; ++s) {
    EXPECT_DOUBLE_EQ(std::stod(column(std::string("raw_clipped_") + kSites[s])),
                     double(want.clipped[s]) / double(want.pixels[s]));
    for (int b : {0, 100, 255})
      EXPECT_EQ(column(std::string("raw_") + kSites[s] + "_bin" + std::to_string(b)),
                std::to_string(want.bins[s][size_t(b)]));
  }
}

TEST(RunBayer, DumpRawGivesBackTheInputBytes) {
  ScratchDir dir;
  const Layout l{"SRGGB10P", "RGGB", 10, 4};
  const RawFile file = writeRawFile(dir.path / "in.raw", l, 12, 4, 3, 5);
  fs::create_directory(dir.path / "dump");
  runOk({"run", "--source", file.path, "--size", "12x4", "--format", "pRAA", "--dump-raw",
         dir.path / "dump", "--backend", "cpu"});
  std::vector<fs::path> dumped;
  for (const auto& e : fs::directory_iterator(dir.path / "dump")) dumped.push_back(e.path());
  std::sort(dumped.begin(), dumped.end());
  ASSERT_EQ(dumped.size(), 3u);
  for (size_t i = 0; i < dumped.size(); ++i) {
    std::ifstream in(dumped[i], std::ios::binary);
    const std::vector<uint8_t> got((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(got, file.bytes[i]) << dumped[i];
  }
}

TEST(RunBayer, BadRawValuesAreOneUsageLine) {
  for (const char* bad : {"black=64,white=10", "wb=0,256", "wb=256", "gamma=2", "black=-1",
                          "white=70000", "wb=256,5000", "black"}) {
    SCOPED_TRACE(bad);
    const CommandResult r = runEsframe({"run", "--frames", "1", "--raw", bad});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("--raw"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

TEST(RunBayer, LevelsAFrameCannotTakeAndTinyFramesAreOneLine) {
  ScratchDir dir;
  const RawFile ten = writeRawFile(dir.path / "ten.raw", {"SRGGB10", "RGGB", 10, 1}, 4, 4, 1, 3);
  CommandResult r = runEsframe({"run", "--source", ten.path, "--size", "4x4", "--format", "SRGGB10",
                                "--raw", "white=2000", "--backend", "reference"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(lineCount(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("white level 2000"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  const RawFile tiny = writeRawFile(dir.path / "tiny.raw", {"SRGGB8", "RGGB", 8, 1}, 1, 3, 1, 3);
  for (const char* backend : {"reference", "cpu", "gles"}) {
    r = runEsframe({"run", "--source", tiny.path, "--size", "1x3", "--format", "SRGGB8",
                    "--backend", backend});
    EXPECT_EQ(r.exit_code, 1) << backend;
    EXPECT_EQ(lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("at least 2x2"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace esf::test
