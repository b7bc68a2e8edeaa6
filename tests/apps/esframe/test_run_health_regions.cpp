// `esframe run --health` with regions: a clip made by ffmpeg whose middle 1.5 s is a flat grey
// with noise (a covered or sprayed lens) between two moving test pictures. Every backend gives
// the same figures for every region, and the covered state holds exactly on the grey frames.
#include <gtest/gtest.h>

#include "tests/apps/esframe/run_test_util.hpp"

namespace esf {
namespace {

using test::OrderedJson;

TEST(RunHealthRegions, CoveredOnExactlyTheFlatFramesOnEveryBackend) {
  test::ScratchDir scratch;
  const std::string clip = (scratch.path / "covered.y4m").string();
  // 10 fps: frames 0-19 moving, 20-34 grey with noise, 35-44 moving; 97x55, an odd size.
  const std::string cmd =
      "ffmpeg -v error -filter_complex 'testsrc2=s=96x54:r=10:d=2[a];"
      "color=c=0x505050:s=96x54:r=10:d=1.5,noise=alls=6:allf=t[b];testsrc2=s=96x54:r=10:d=1[c];"
      "[a][b][c]concat=n=3:v=1:a=0,scale=97:55,format=yuv420p' -y '" +
      clip + "'";
  test::CommandResult made = test::runShell(cmd);
  ASSERT_EQ(made.exit_code, 0) << cmd << "\n" << made.err;
  const std::string options = "--health=grid=4x3,roi=5,5,40,20,90,50,30,30,covered_min_duration=1";
  std::vector<OrderedJson> first_health;
  for (const char* backend : {"reference", "cpu", "gles"}) {
    SCOPED_TRACE(backend);
    const std::string out = test::runOk(
        {"run", "--source", clip, "--backend", backend, options, "--histogram", "channels=l"});
    std::vector<OrderedJson> health, covered_events;
    for (OrderedJson& j : test::parseJsonLines(out)) {
      if (!j.contains("event")) {
        health.push_back(j["health"]);
        continue;
      }
      const std::string name = j["event"].get<std::string>();
      if (name.starts_with("covered")) covered_events.push_back(j);
    }
    ASSERT_EQ(health.size(), 45u);
    for (size_t seq = 0; seq < health.size(); ++seq) {
      SCOPED_TRACE(testing::Message() << "frame " << seq);
      const OrderedJson& h = health[seq];
      ASSERT_EQ(h["regions"].size(), 12u + 2u);  // the cells, then the two rectangles
      EXPECT_EQ(h["covered"].get<bool>(), seq >= 20 && seq < 35);
      // The second rectangle reaches past the frame: clipped to its 7 x 5 corner.
      EXPECT_GT(h["regions"][13]["mean"].get<double>(), 0);
      for (const OrderedJson& r : h["regions"]) {
        EXPECT_GE(r["changed"].get<double>(), 0);
        EXPECT_LE(r["changed"].get<double>(), 1);
      }
    }
    EXPECT_EQ(health[0]["regions"][0]["changed"].get<double>(), 0);  // no previous frame
    ASSERT_EQ(covered_events.size(), 2u);
    EXPECT_EQ(covered_events[0]["event"], "covered_start");
    EXPECT_EQ(covered_events[0]["start_ns"].get<uint64_t>(), 2000000000u);
    EXPECT_EQ(covered_events[0]["seq"].get<int>(), 30);  // the run has lasted 1 s
    EXPECT_EQ(covered_events[1]["event"], "covered_end");
    EXPECT_EQ(covered_events[1]["end_ns"].get<uint64_t>(), 3500000000u);
    // The region figures come from integer sums every backend computes bit for bit alike.
    if (first_health.empty())
      first_health = health;
    else
      EXPECT_EQ(health, first_health);
  }
}

TEST(RunHealthRegions, BadRegionsGiveOneLineNamingTheKey) {
  for (const char* bad : {"--health=grid=17x2", "--health=grid=4", "--health=roi=1,2,3",
                          "--health=roi=1,2,0,4", "--health=covered=2", "--health=change=256"}) {
    test::CommandResult r = test::runEsframe({"run", "--frames", "1", "--backend", "cpu", bad});
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_EQ(test::lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("health"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace esf
