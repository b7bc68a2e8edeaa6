// `esframe selftest` as a user runs it: the quick selftest passes here with one line per check
// and exit 0; its --json report validates against docs/selftest-report.schema.json (with
// python3-jsonschema, an independent validator); `info` shows the stored verdict. A deliberately
// miscounting GPU (ESFRAME_FAULT_INJECTION builds) fails it with exit 1, `info` shows the failed
// verdict, and `--backend auto`, which the tuning cache would send to the GPU, runs the CPU
// executor instead with one line saying why, and prints what the reference prints.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "tests/support/cli_cache_test.hpp"

namespace esf {
namespace {

namespace fs = std::filesystem;

class CliSelftest : public test::CliWithOwnCache {
 protected:
  // Validates `json_text` against the schema in the tree with Debian's python3-jsonschema.
  test::CommandResult validate(const std::string& json_text) {
    const fs::path report = xdg_ / "report.json";
    std::ofstream(report) << json_text;
    return test::runShell("'" ESF_SOURCE_DIR "/tests/support/validate_json.py' '" ESF_SOURCE_DIR
                          "/docs/selftest-report.schema.json' '" +
                          report.string() + "'");
  }
  void expectValid(const std::string& json_text) {
    const test::CommandResult v = validate(json_text);
    EXPECT_EQ(v.exit_code, 0) << v.err;
  }
};

TEST_F(CliSelftest, QuickPassesHereAndInfoShowsTheVerdict) {
  test::CommandResult r = esframe("selftest --quick");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("exact    histogram"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("selftest: PASSED: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("WRONG"), std::string::npos) << r.out;
  r = esframe("selftest --quick --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["passed"], true);
  expectValid(r.out);
  r = esframe("info --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json verdict = nlohmann::json::parse(r.out)["backend"]["selftest"];
  EXPECT_EQ(verdict["passed"], true) << r.out;
  EXPECT_EQ(verdict["at"], report["at"]);
  r = esframe("info");
  EXPECT_NE(r.out.find("selftest: passed (quick, "), std::string::npos) << r.out;
}

TEST_F(CliSelftest, TheSchemaRejectsAReportThatBreaksIt) {
  test::CommandResult r = esframe("selftest --quick --json --size 32x16");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json report = nlohmann::json::parse(r.out);
  report["passed"] = false;  // a failed report must name its failure
  test::CommandResult v = validate(report.dump());
  EXPECT_EQ(v.exit_code, 1) << v.err;
  EXPECT_NE(v.err.find("first_failure"), std::string::npos) << v.err;
  report["passed"] = true;
  report["checks"][0]["outcome"] = "probably";
  v = validate(report.dump());
  EXPECT_EQ(v.exit_code, 1) << v.err;
  report["checks"][0]["outcome"] = "exact";
  expectValid(report.dump());
}

TEST_F(CliSelftest, BadOptionsFailWithOneLine) {
  for (const char* args : {"selftest --size 0x5", "selftest --size big", "selftest --frobnicate"}) {
    const test::CommandResult r = esframe(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(test::lineCount(r.err), 1) << args << ": " << r.err;
  }
}

#if ESF_FAULT_INJECTION
TEST_F(CliSelftest, AMiscountingGpuFailsAndAutoFallsBackToTheCpu) {
  // The tuning cache sends every stage chain to the GPU (llvmpipe's rule alone would not).
  test::CommandResult r = esframe("tune --quick --size 64x48 --iterations 1 --stages backend");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream cache_file(cache_);
  nlohmann::json cache = nlohmann::json::parse(cache_file);
  cache_file.close();
  for (auto& e : cache["entries"])
    if (e["stage"].get<std::string>().rfind("backend:", 0) == 0) e["params"]["backend"] = "gles";
  std::ofstream(cache_) << cache.dump();

  const std::string fault = "ESFRAME_TEST_GPU_FAULT=histogram";
  r = esframe("selftest --quick", fault);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("WRONG    histogram"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("selftest: FAILED: "), std::string::npos) << r.out;
  r = esframe("selftest --quick --json", fault);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  expectValid(r.out);
  r = esframe("info");
  EXPECT_NE(r.out.find("selftest: FAILED: histogram"), std::string::npos) << r.out;

  // The run: the CPU executor, one line saying why, the reference's output.
  const std::string run = "run --source pattern --size 64x48 --frames 3";
  r = esframe(run, fault);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::lineCount(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("backend auto: cpu, the GL renderer "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" failed esframe selftest: histogram"), std::string::npos) << r.err;
  const test::CommandResult reference = esframe(run + " --backend reference");
  ASSERT_EQ(reference.exit_code, 0) << reference.err;
  EXPECT_EQ(test::withoutTimings(r.out), test::withoutTimings(reference.out));
}
#endif

}  // namespace
}  // namespace esf
