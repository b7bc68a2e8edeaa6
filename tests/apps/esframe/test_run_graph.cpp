// The graph's modes end to end: each mode and scale, through `esframe run`, draws the same
// decorated graph PNG on the GLES backend (graph.frag) as on the CPU backend (the CPU
// reference), with the caption strip present; bad graph options are one-line errors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "capture/still_image.hpp"
#include "tests/apps/esframe/run_test_util.hpp"

namespace esf {
namespace {

RgbaImage graphOf(const std::string& backend, const std::string& graph_options) {
  test::ScratchDir dir;
  test::CommandResult r = test::runEsframe(
      {"run", "--frames", "1", "--size", "61x37", "--backend", backend, "--histogram",
       "bins=40,channels=rgbl", "--output", "png:" + dir.path.string() + "," + graph_options});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  Result<RgbaImage> graph = loadStillImage((dir.path / "graph-00000000.png").string());
  EXPECT_TRUE(graph) << graph.error().message;
  return graph ? graph.value() : RgbaImage();
}

TEST(RunGraph, BackendsDrawTheSameDecoratedGraphInEveryMode) {
  for (const char* options : {"graph=203x99", "graph=203x99,mode=parade,scale=log",
                              "graph=203x99,mode=luma", "graph=203x99,mode=overlay,scale=log"}) {
    SCOPED_TRACE(options);
    const RgbaImage gles = graphOf("gles", options);
    const RgbaImage cpu = graphOf("cpu", options);
    ASSERT_EQ(gles.width, 203);
    ASSERT_EQ(gles.height, 99);
    EXPECT_TRUE(gles == cpu) << "the GLES and CPU graphs differ";
    // The caption strip (9 rows) holds white ink; the undecorated graph has none up there.
    int ink = 0;
    for (int y = 0; y < 9; ++y)
      for (int x = 0; x < gles.width; ++x)
        ink += gles.at(x, y)[0] == 255 && gles.at(x, y)[2] == 255;
    EXPECT_GT(ink, 100);
  }
}

TEST(RunGraph, BadGraphOptionsAreOneLineErrors) {
  struct Case {
    std::string output, channels;
    int exit_code;
    std::string names;
  };
  for (const Case& c : {Case{"png:/tmp,mode=waveform", "rgbl", 2, "mode=waveform"},
                        Case{"png:/tmp,scale=sqrt", "rgbl", 2, "scale=sqrt"},
                        Case{"png:/tmp,decor=maybe", "rgbl", 2, "decor=maybe"}}) {
    SCOPED_TRACE(c.output);
    test::CommandResult r = test::runEsframe(
        {"run", "--frames", "1", "--histogram", "channels=" + c.channels, "--output", c.output});
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_EQ(test::lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(c.names), std::string::npos) << r.err;
  }
  for (const char* backend : {"gles", "cpu"}) {
    test::ScratchDir dir;
    test::CommandResult r =
        test::runEsframe({"run", "--frames", "1", "--backend", backend, "--histogram",
                          "channels=rgb", "--output", "png:" + dir.path.string() + ",mode=luma"});
    EXPECT_EQ(r.exit_code, 1) << backend << ": " << r.err;
    EXPECT_EQ(test::lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("luma needs the l channel"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace esf
