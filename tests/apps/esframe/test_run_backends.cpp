// `esframe run` on every backend gives the same lines, timings aside: the default (auto), gles,
// the plain references and the CPU executor, for the pattern, a still image and a Y4M file, with
// L from RGB and from the source's Y plane. The default says once which backend auto took.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "tests/apps/esframe/run_test_util.hpp"

namespace esf {
namespace {

using test::OrderedJson;

// A 4:2:0 Y4M of seeded random planes (written by hand: no esframe code makes the input).
void writeY4m(const std::filesystem::path& path, int w, int h, int frames) {
  std::ofstream out(path, std::ios::binary);
  out << "YUV4MPEG2 W" << w << " H" << h << " F25:1 Ip A1:1 C420jpeg\n";
  std::mt19937 rng(5);
  const size_t bytes = size_t(w) * size_t(h) + 2 * size_t((w + 1) / 2) * size_t((h + 1) / 2);
  for (int f = 0; f < frames; ++f) {
    out << "FRAME\n";
    for (size_t i = 0; i < bytes; ++i) out.put(char(rng()));
  }
  ASSERT_TRUE(out.good()) << path;
}

// The run's JSON lines without the timing fields, as text.
std::string withoutTimings(const std::string& out) {
  std::string text;
  for (OrderedJson j : test::parseJsonLines(out)) {
    j.erase("timing_ms");
    j.erase("timing_clock");
    text += j.dump() + "\n";
  }
  return text;
}

std::string autoBackend() {
  const test::CommandResult r = test::runEsframe({"info", "--json"});
  return r.exit_code == 0 ? nlohmann::json::parse(r.out)["backend"]["auto"].get<std::string>()
                          : "cpu";  // no GPU at all: auto takes the executor
}

TEST(RunBackends, EveryBackendPrintsTheSameLinesForPatternStillAndY4m) {
  test::ScratchDir dir;
  const std::string still = (dir.path / "still.ppm").string();
  test::writePpm(still, 29, 13, [](int x, int y) {
    return test::Rgb{uint8_t(x * 9), uint8_t(y * 19), uint8_t((x * y) ^ 0x5a)};
  });
  const std::string y4m = (dir.path / "clip.y4m").string();
  writeY4m(y4m, 37, 21, 3);
  const std::vector<std::vector<std::string>> sources = {
      {"--source", "pattern", "--frames", "3", "--size", "65x33", "--format", "YU12"},
      {"--source", still},
      {"--source", y4m},
  };
  const std::vector<std::vector<std::string>> options = {
      {}, {"--luma", "source", "--histogram", "bins=64,channels=lr"}};
  const std::string chosen = autoBackend();
  for (const auto& source : sources)
    for (const auto& option : options) {
      std::vector<std::string> args = {"run"};
      args.insert(args.end(), source.begin(), source.end());
      args.insert(args.end(), option.begin(), option.end());
      SCOPED_TRACE(source.back() + (option.empty() ? "" : " --luma source"));
      const test::CommandResult by_default = test::runEsframe(args);
      ASSERT_EQ(by_default.exit_code, 0) << by_default.err;
      size_t said = 0;
      for (size_t at = 0; (at = by_default.err.find("backend auto: ", at)) != std::string::npos;
           ++at)
        ++said;
      EXPECT_EQ(said, chosen == "cpu" ? 1u : 0u) << by_default.err;
      const std::string expected = withoutTimings(by_default.out);
      EXPECT_FALSE(expected.empty());
      for (const std::vector<std::string>& backend : {std::vector<std::string>{"--backend", "gles"},
                                                      {"--backend", "reference"},
                                                      {"--backend", "cpu"},
                                                      {"--backend", "cpu", "--threads", "3"}}) {
        std::vector<std::string> forced = args;
        forced.insert(forced.end(), backend.begin(), backend.end());
        SCOPED_TRACE(backend.back());
        EXPECT_EQ(withoutTimings(test::runOk(forced)), expected);
      }
    }
}

}  // namespace
}  // namespace esf
