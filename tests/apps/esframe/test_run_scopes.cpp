// `esframe run --scopes`: its option syntax (bad values are one line naming the option, exit 2),
// the JSONL "scopes" object's form, and the other stdout formats without it. The counts
// themselves are compared with numpy in tests/python/test_scopes.py and across backends in
// tests/core/pipeline/test_scopes_backends.cpp.
#include <gtest/gtest.h>

#include "tests/apps/esframe/run_test_util.hpp"

namespace esf {
namespace {

TEST(RunScopes, BadValuesGiveOneLineNamingTheOption) {
  for (const char* bad : {"histogram", "waveform,waveform", "columns=8", "waveform,columns=0",
                          "waveform,columns=4097", "waveform,columns=x", "waveform,,parade"}) {
    SCOPED_TRACE(bad);
    const test::CommandResult r =
        test::runEsframe({"run", "--frames", "1", "--backend", "cpu", "--scopes", bad});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(test::lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("--scopes"), std::string::npos) << r.err;
  }
}

TEST(RunScopes, JsonlCarriesTheCompactForm) {
  const std::string out = test::runOk({"run", "--frames", "1", "--backend", "cpu", "--size",
                                       "640x8", "--scopes", "waveform,parade,vectorscope"});
  const std::vector<test::OrderedJson> lines = test::parseJsonLines(out);
  ASSERT_EQ(lines.size(), 1u);
  const test::OrderedJson& s = lines[0]["scopes"];
  EXPECT_EQ(s["columns"], 512);  // the width, at most 512
  EXPECT_EQ(s["waveform"]["shape"], test::OrderedJson::array({512, 256}));
  EXPECT_EQ(s["parade"]["shape"], test::OrderedJson::array({3, 512, 256}));
  EXPECT_EQ(s["vectorscope"]["shape"], test::OrderedJson::array({256, 256}));
  EXPECT_EQ(s["waveform"]["dtype"], "<u4");
  // base64 of 4 bytes a count: 4 characters per 3 bytes, padded.
  EXPECT_EQ(s["vectorscope"]["data"].get<std::string>().size(), (65536 * 4 + 2) / 3 * 4);
  EXPECT_EQ(s["vectorscope_samples"], 640 * 8);
  EXPECT_TRUE(lines[0]["timing_ms"].contains("scopes"));

  const std::string plain = test::runOk({"run", "--frames", "1", "--backend", "cpu"});
  EXPECT_EQ(plain.find("scopes"), std::string::npos);
  // CSV has no scope columns: the same header with and without --scopes, up to the timings
  // (which gain timing_scopes_ms).
  const std::string csv = test::runOk(
      {"run", "--frames", "1", "--backend", "cpu", "--output", "csv", "--scopes", "waveform"});
  const std::string csv_plain =
      test::runOk({"run", "--frames", "1", "--backend", "cpu", "--output", "csv"});
  EXPECT_EQ(csv.substr(0, csv.find(",timing_")), csv_plain.substr(0, csv_plain.find(",timing_")));
  EXPECT_NE(csv.find("timing_scopes_ms"), std::string::npos);
}

}  // namespace
}  // namespace esf
