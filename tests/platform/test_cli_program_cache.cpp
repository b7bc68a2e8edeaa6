// `esframe run` with the program binary cache: a second run loads what the first compiled (its
// -vv timeline says so) and writes the same JSONL, which equals the reference backend's; a
// cache folder that cannot be made and ESFRAME_PROGRAM_CACHE=0 still run, with rc 0.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "tests/support/run_command.hpp"

namespace esf {
namespace {

namespace fs = std::filesystem;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class CliProgramCache : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/esframe-cli-program-cache-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    // Three 67x33 4:2:0 frames of seeded random bytes (odd sizes: chroma rounds up).
    std::ofstream y4m(root_ / "clip.y4m", std::ios::binary);
    y4m << "YUV4MPEG2 W67 H33 F30:1 Ip A1:1 C420jpeg\n";
    std::mt19937 rng(12);
    for (int f = 0; f < 3; ++f) {
      y4m << "FRAME\n";
      for (int i = 0; i < 67 * 33 + 2 * 34 * 17; ++i) y4m.put(char(rng() & 0xFF));
    }
  }
  void TearDown() override { fs::remove_all(root_); }

  // `esframe -vv run` on the clip with `env` (NAME=VALUE ...) before it.
  test::CommandResult run(const std::string& env, const std::string& backend = "gles") {
    // Mesa's own cache (which its program binaries need) stays put whatever XDG_CACHE_HOME is.
    // ctest keeps programs in the build tree (ESFRAME_PROGRAM_CACHE): these runs use XDG's.
    return test::runShell("env -u ESFRAME_PROGRAM_CACHE MESA_SHADER_CACHE_DIR='" +
                          (root_ / "mesa").string() + "' " + env + " '" + test::esframeBinary() +
                          "' -vv run --backend " + backend +
                          " --frames 3 --blur 3 --histogram bins=64 --source '" +
                          (root_ / "clip.y4m").string() + "'");
  }
  std::string xdg(const fs::path& dir) const { return "XDG_CACHE_HOME='" + dir.string() + "'"; }
  fs::path root_;
};

TEST_F(CliProgramCache, SecondRunLoadsTheProgramsAndWritesTheSameResults) {
  const test::CommandResult reference = run(xdg(root_ / "ref"), "reference");
  ASSERT_EQ(reference.exit_code, 0) << reference.err;
  const std::string expected = test::withoutTimings(reference.out);
  ASSERT_EQ(test::lineCount(expected), 3);

  const test::CommandResult cold = run(xdg(root_ / "xdg"));
  ASSERT_EQ(cold.exit_code, 0) << cold.err;
  if (cold.err.find("offers no program binary format") != std::string::npos)
    GTEST_SKIP() << "the driver offers no program binary format: the cache is off";
  EXPECT_EQ(test::withoutTimings(cold.out), expected);
  const int built = count(cold.err, "compiled and linked");
  EXPECT_GE(built, 3) << "import, scale, histogram, blur:\n" << cold.err;
  EXPECT_EQ(count(cold.err, "stored in the program cache"), built) << cold.err;
  EXPECT_EQ(count(cold.err, "loaded from the program cache"), 0) << cold.err;
  // A Y4M run builds only the YUV conversion.
  EXPECT_EQ(count(cold.err, "import_rgb.comp"), 0) << cold.err;
  EXPECT_EQ(count(cold.err, "import_yuv.comp: compiled"), 1) << cold.err;
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(root_ / "xdg" / "esframe" / "programs"))
    files += e.path().extension() == ".bin";
  EXPECT_EQ(files, size_t(built));

  const test::CommandResult warm = run(xdg(root_ / "xdg"));
  ASSERT_EQ(warm.exit_code, 0) << warm.err;
  EXPECT_EQ(test::withoutTimings(warm.out), expected);
  EXPECT_EQ(count(warm.err, "loaded from the program cache"), built) << warm.err;
  EXPECT_EQ(count(warm.err, "compiled and linked"), 0) << warm.err;
  // The timeline: milliseconds since start on every -vv line, the first frame among them.
  EXPECT_NE(warm.err.find("esframe: debug: ["), std::string::npos) << warm.err;
  EXPECT_EQ(count(warm.err, "ms] run: the first frame delivered"), 1) << warm.err;
}

TEST_F(CliProgramCache, UnusableFolderOrSwitchedOffStillRuns) {
  const test::CommandResult reference = run(xdg(root_ / "ref"), "reference");
  ASSERT_EQ(reference.exit_code, 0) << reference.err;
  const std::string expected = test::withoutTimings(reference.out);
  std::ofstream(root_ / "file") << "not a folder\n";

  const test::CommandResult under_file = run(xdg(root_ / "file"));
  EXPECT_EQ(under_file.exit_code, 0) << under_file.err;
  EXPECT_EQ(test::withoutTimings(under_file.out), expected);
  EXPECT_EQ(count(under_file.err, "error"), 0) << under_file.err;
  EXPECT_EQ(count(under_file.err, "stored in the program cache"), 0) << under_file.err;
  EXPECT_GE(count(under_file.err, "not stored (cannot create directory"), 3) << under_file.err;

  const test::CommandResult off = run(xdg(root_ / "off") + " ESFRAME_PROGRAM_CACHE=0");
  EXPECT_EQ(off.exit_code, 0) << off.err;
  EXPECT_EQ(test::withoutTimings(off.out), expected);
  EXPECT_EQ(count(off.err, "program cache: off (ESFRAME_PROGRAM_CACHE=0)"), 1) << off.err;
  EXPECT_EQ(count(off.err, "the program cache"), 0) << off.err;
  EXPECT_FALSE(fs::exists(root_ / "off" / "esframe" / "programs"));
}

}  // namespace
}  // namespace esf
