// `esframe tune`: --reset, --show, a corrupt cache, a quick tune and `esframe info`'s section.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/cli_cache_test.hpp"

namespace esf {
namespace {

namespace fs = std::filesystem;

class CliTune : public test::CliWithOwnCache {};

TEST_F(CliTune, ShowOnAMissingCacheIsEmpty) {
  test::CommandResult r = esframe("tune --show");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(cache_.string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(empty)"), std::string::npos) << r.out;
}

TEST_F(CliTune, ACorruptCacheIsIgnoredWithAWarning) {
  fs::create_directories(cache_.parent_path());
  std::ofstream(cache_) << "{ this is not json";
  test::CommandResult r = esframe("tune --show");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("corrupt tuning cache"), std::string::npos) << r.err;
  r = esframe("info");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("tuning (strategy=auto)"), std::string::npos) << r.out;
  r = esframe("tune --reset");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(cache_));
}

TEST_F(CliTune, QuickTuneStoresEntriesThatInfoReports) {
  test::CommandResult r =
      esframe("tune --quick --size 64x48 --iterations 2 --stages histogram,blur");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(fs::exists(cache_));
  r = esframe("tune --show --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  // The two tuned stages, and the selftest's verdict on what auto now picks (size class "any").
  ASSERT_EQ(j["entries"].size(), 3u);
  int tuned = 0;
  for (const auto& e : j["entries"]) {
    if (e["stage"] == "selftest") {
      EXPECT_EQ(e["params"]["passed"], true) << e.dump();
      continue;
    }
    ++tuned;
    EXPECT_EQ(e["size_class"], "640x480");
    EXPECT_EQ(e["frame"], "64x48");
  }
  EXPECT_EQ(tuned, 2);
  r = esframe("info --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json info = nlohmann::json::parse(r.out);
  std::string why = info["tuning"]["strategy_auto"][0]["histogram"];
  EXPECT_NE(why.find("tuned"), std::string::npos) << why;
  why = info["tuning"]["strategy_auto"][3]["histogram"];  // 3840x2160: not tuned
  EXPECT_NE(why.find("no tuning cache entry"), std::string::npos) << why;
}

TEST_F(CliTune, AutoFollowsTheBackendRecordsAndInfoSaysSo) {
  test::CommandResult r = esframe("tune --quick --size 64x48 --iterations 1 --stages backend");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("backend:histogram"), std::string::npos) << r.out;
  // Flip every measured winner: auto must follow the record, not the renderer rule.
  std::ifstream cache_file(cache_);
  nlohmann::json cache = nlohmann::json::parse(cache_file);
  cache_file.close();
  std::map<std::string, std::string> flipped;
  for (auto& e : cache["entries"]) {
    const std::string stage = e["stage"];
    if (stage.rfind("backend:", 0) != 0) continue;
    const std::string won = e["params"]["backend"];
    e["params"]["backend"] = won == "cpu" ? "gles" : "cpu";
    flipped[stage.substr(8)] = e["params"]["backend"];
  }
  ASSERT_EQ(flipped.size(), 3u) << cache.dump();
  std::ofstream(cache_) << cache.dump();

  const std::string run = "run --source pattern --size 64x48 --frames 2";
  r = esframe("-v " + run + " --blur 3");  // -v: a GPU choice is an info line
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("backend auto: " + flipped["blur+histogram"] + ", the tuning cache"),
            std::string::npos)
      << r.err;
  const test::CommandResult reference = esframe(run + " --blur 3 --backend reference");
  ASSERT_EQ(reference.exit_code, 0) << reference.err;
  EXPECT_EQ(test::withoutTimings(r.out), test::withoutTimings(reference.out));

  // Another size class has no record: the rule stands, and says the cache had none.
  r = esframe("run --source pattern --size 1280x720 --frames 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("has no histogram record for 1280x720's size class 1280x720"),
            std::string::npos)
      << r.err;

  r = esframe("info --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json tuned = nlohmann::json::parse(r.out)["backend"]["tuned"];
  ASSERT_EQ(tuned.size(), 3u) << r.out;
  for (const auto& t : tuned) {
    EXPECT_EQ(t["size_class"], "640x480");
    EXPECT_EQ(t["backend"], flipped[t["chain"]]) << t.dump();
  }
}

TEST_F(CliTune, BadArgumentsFailWithOneLine) {
  for (const char* args : {"tune --size 12", "tune --size 0x5", "tune --stages histogram,sharpen",
                           "tune --format NOPE", "tune --content noise"}) {
    test::CommandResult r = esframe(args);
    EXPECT_NE(r.exit_code, 0) << args;
    EXPECT_EQ(test::lineCount(r.err), 1) << args << ": " << r.err;
    EXPECT_FALSE(fs::exists(cache_)) << args;
  }
}

}  // namespace
}  // namespace esf

namespace esf {
namespace {

// The stage names in one JSONL line's timing_ms, in order.
std::vector<std::string> timedStages(const std::string& jsonl) {
  std::vector<std::string> names;
  const nlohmann::json line = nlohmann::json::parse(jsonl.substr(0, jsonl.find('\n')));
  for (const auto& [name, ms] : line["timing_ms"].items()) names.push_back(name);
  return names;
}

TEST_F(CliTune, ASplitBlurThroughABufferWritesTheHistogramsPackedFrameItself) {
  // Tuned records for this GPU: the histogram reads the packed buffer, the blur is split
  // through a buffer. With no sink reading the image, the blur writes the packed frame itself
  // (no pack pass); with a PNG output it blurs the image and packs it. Both equal the reference.
  test::CommandResult r =
      esframe("tune --quick --size 64x48 --iterations 1 --stages histogram,blur");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream cache_file(cache_);
  nlohmann::json cache = nlohmann::json::parse(cache_file);
  cache_file.close();
  for (auto& e : cache["entries"]) {
    if (e["stage"] == "histogram") {
      e["params"]["strategy"] = "persistent";
      e["params"]["source"] = "buffer";
    } else if (e["stage"] == "blur") {
      e["params"] = {{"strategy", "split"},        {"tile_width", 16}, {"tile_rows", 8},
                     {"workgroup_size", 64},       {"segment", 8},     {"prefetch", 1},
                     {"buffer_intermediate", true}};
    }
  }
  std::ofstream(cache_) << cache.dump();
  const fs::path png = xdg_ / "frames";
  const std::string run = "run --source pattern --size 64x48 --frames 3 --blur 15";
  const test::CommandResult reference = esframe(run + " --backend reference");
  ASSERT_EQ(reference.exit_code, 0) << reference.err;
  for (bool with_png : {false, true}) {
    r = esframe("-v " + run + " --backend gles" +
                (with_png ? " --output jsonl --output png:" + png.string() : ""));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("blur: tuned ("), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("via-buffer"), std::string::npos) << r.err;
    EXPECT_EQ(test::withoutTimings(r.out), test::withoutTimings(reference.out))
        << (with_png ? "png" : "");
    const std::vector<std::string> stages = timedStages(r.out);
    EXPECT_NE(std::find(stages.begin(), stages.end(), "blur"), stages.end());
    EXPECT_EQ(std::find(stages.begin(), stages.end(), "pack") != stages.end(), with_png)
        << r.out.substr(0, r.out.find('\n'));
  }
}

}  // namespace
}  // namespace esf
