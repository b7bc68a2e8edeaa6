// `esframe run` file and stdout outputs: PNG (graph and frame), CSV, bin.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/outputs/graph_renderer.hpp"
#include "core/stages/scale_reference.hpp"
#include "tests/core/outputs/png_test_util.hpp"
#include "tests/support/run_command.hpp"

namespace esf {
namespace {

using test::loadPng;

using nlohmann::json;
using test::runEsframe;
namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/esframe-run-test-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
};

// The graph PNG equals the CPU reference drawn from the histogram the same run printed, with the
// scale stage's CPU reference; gles and cpu backends write the same frame PNG.
TEST(RunPng, GraphMatchesPrintedHistogramAndFramesAgree) {
  TempDir gles_dir, cpu_dir;
  for (auto [backend, dir] : {std::pair{"gles", &gles_dir}, std::pair{"cpu", &cpu_dir}}) {
    SCOPED_TRACE(backend);
    test::CommandResult r =
        runEsframe({"run", "--frames", "3", "--size", "50x30", "--backend", backend, "--histogram",
                    "bins=24,channels=rgbl", "--output", "jsonl", "--output",
                    "png:" + dir->path.string() + ",every=2,graph=97x41,decor=off"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // every=2 over frames 0, 1, 2: frames 0 and 2.
    for (const char* name :
         {"graph-00000000.png", "frame-00000000.png", "graph-00000002.png", "frame-00000002.png"})
      EXPECT_TRUE(fs::exists(dir->path / name)) << name;
    EXPECT_FALSE(fs::exists(dir->path / "graph-00000001.png"));
    const json first = json::parse(r.out.substr(0, r.out.find('\n')));
    HistogramData h;
    h.bins = 24;
    h.channels = "rgbl";
    for (int b = 0; b < 24; ++b)
      for (char c : h.channels) h.counts.push_back(first["hist"][std::string(1, c)][b]);
    std::vector<float> scales;
    for (const ChannelScale& s : scaleReference(h.counts, 24, 4, 50 * 30))
      scales.push_back(s.scale);
    const RgbaImage graph = loadPng(dir->path / "graph-00000000.png");
    ASSERT_EQ(graph.width, 97);
    ASSERT_EQ(graph.height, 41);
    EXPECT_TRUE(graph == renderGraphReference(h, scales, 97, 41));
    EXPECT_EQ(loadPng(dir->path / "frame-00000000.png").width, 50);
  }
  EXPECT_TRUE(loadPng(gles_dir.path / "frame-00000002.png") ==
              loadPng(cpu_dir.path / "frame-00000002.png"));
  for (const auto& e : fs::directory_iterator(gles_dir.path))
    EXPECT_EQ(e.path().extension(), ".png") << "left a temporary file: " << e.path();
}

TEST(RunCsv, HeaderThenOneRowPerFrame) {
  test::CommandResult r = runEsframe(
      {"run", "--frames", "3", "--size", "20x10", "--output", "csv:bins", "--histogram", "bins=8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(test::lineCount(r.out), 4);
  const std::string header = r.out.substr(0, r.out.find('\n'));
  EXPECT_EQ(header.rfind("seq,ts_ns,source,width,height,format,dropped,r_min,", 0), 0u);
  EXPECT_NE(header.find(",l_bin7"), std::string::npos);
  size_t columns = std::count(header.begin(), header.end(), ',');
  size_t start = header.size() + 1;
  for (int row = 0; row < 3; ++row) {
    const size_t end = r.out.find('\n', start);
    const std::string line = r.out.substr(start, end - start);
    EXPECT_EQ(size_t(std::count(line.begin(), line.end(), ',')), columns);
    EXPECT_EQ(line.rfind(std::to_string(row) + ",", 0), 0u);
    start = end + 1;
  }
}

TEST(RunBin, RecordsChainBySize) {
  test::CommandResult r =
      runEsframe({"run", "--frames", "4", "--size", "16x16", "--output", "bin"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t at = 0;
  int records = 0;
  while (at + 64 <= r.out.size()) {
    ASSERT_EQ(r.out.substr(at, 4), "ESF1");
    uint32_t size = 0;
    std::memcpy(&size, r.out.data() + at + 4, 4);  // little-endian host
    uint64_t seq = 0;
    std::memcpy(&seq, r.out.data() + at + 8, 8);
    EXPECT_EQ(seq, uint64_t(records));
    at += size;
    ++records;
  }
  EXPECT_EQ(at, r.out.size());
  EXPECT_EQ(records, 4);
}

// --dump-raw reaches the source: each frame's raw bytes land in DIR, and a histogram of them
// (GREY: the bytes are the values) equals the L histogram the same run printed.
TEST(RunDumpRaw, RawBytesMatchThePrintedHistogram) {
  TempDir dir;
  test::CommandResult r =
      runEsframe({"run", "--frames", "2", "--size", "30x20", "--format", "GREY", "--histogram",
                  "channels=l", "--dump-raw", dir.path.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json first = json::parse(r.out.substr(0, r.out.find('\n')));
  const fs::path raw = dir.path / "000000-30x20-GREY.raw";
  ASSERT_TRUE(fs::exists(raw)) << r.err;
  std::ifstream in(raw, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(bytes.size(), 600u);
  std::vector<uint64_t> counts(256, 0);
  for (char c : bytes) ++counts[uint8_t(c)];
  for (int v = 0; v < 256; ++v) EXPECT_EQ(first["hist"]["l"][v].get<uint64_t>(), counts[v]) << v;
}

// An existing frame file (or a symlink planted in its place) is never written: one line, exit 1,
// the planted link's target untouched; --overwrite replaces the files (the link itself).
TEST(RunOverwrite, ExistingFilesAreRefusedUnlessOverwrite) {
  TempDir png_dir, raw_dir;
  // An explicit backend: the one error line is checked whole, without backend auto's line.
  const std::vector<std::string> png_run = {
      "run",      "--backend", "cpu",
      "--frames", "1",         "--size",
      "20x10",    "--output",  "png:" + png_dir.path.string()};
  ASSERT_EQ(runEsframe(png_run).exit_code, 0);
  test::CommandResult again = runEsframe(png_run);
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err, "esframe: error: cannot write " +
                           (png_dir.path / "graph-00000000.png").string() +
                           ": a file of that name exists (not replaced)\n");
  std::vector<std::string> overwrite = png_run;
  overwrite.push_back("--overwrite");
  EXPECT_EQ(runEsframe(overwrite).exit_code, 0);

  const fs::path victim = raw_dir.path / "victim";
  std::ofstream(victim) << "precious";
  fs::create_directories(raw_dir.path / "dump");
  fs::create_symlink(victim, raw_dir.path / "dump" / "000000-20x10-GREY.raw");
  const std::vector<std::string> raw_run = {
      "run",    "--frames",   "1",
      "--size", "20x10",      "--format",
      "GREY",   "--dump-raw", (raw_dir.path / "dump").string()};
  test::CommandResult planted = runEsframe(raw_run);
  EXPECT_EQ(planted.exit_code, 1);
  EXPECT_EQ(planted.out, "");
  std::ifstream in(victim);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "precious");
}

TEST(RunTimeout, OutOfRangeIsAUsageError) {
  test::CommandResult r = runEsframe({"run", "--timeout", "0", "--frames", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--timeout: must be between 0.001 and 3600 seconds"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace esf
