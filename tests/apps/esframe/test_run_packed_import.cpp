// The GPU path where every stage reads packed buffers (NVIDIA's defaults): frames imported
// straight into the packed layout (a host RGBA32 frame copied as it is, the other formats
// converted by the import shaders into buffers), the blur packed -> packed, no pack pass, the
// health stages reading the packed frame, the scopes counting it.
// llvmpipe's own defaults read images, so a tuning cache sends the histogram and the blur to
// their packed forms here; every format's lines equal the reference backend's, and the runs
// without a blur have no pack stage (they would, had the frame been imported into an image).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/apps/esframe/run_test_util.hpp"

namespace esf {
namespace {

namespace fs = std::filesystem;

TEST(RunPackedImport, EveryFormatEqualsTheReferenceWithNoPackPass) {
  test::ScratchDir dir;
  const std::string env = "XDG_CACHE_HOME='" + dir.path.string() + "' ";
  const std::string esframe = env + "'" + test::esframeBinary() + "' ";
  // The histogram's entry from a quick tune; the blur's copies its identity (tuning the blur is
  // not needed here, and its variants hit llvmpipe's armhf defect: toolchain/cross-test).
  test::CommandResult r =
      test::runShell(esframe + "tune --quick --size 64x48 --iterations 1 --stages histogram");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path cache_path = dir.path / "esframe" / "tuning.json";
  nlohmann::json cache = nlohmann::json::parse(std::ifstream(cache_path));
  nlohmann::json blur;
  for (auto& e : cache["entries"]) {
    if (e["stage"] != "histogram") continue;
    nlohmann::json& p = e["params"];
    p["strategy"] = "replicated", p["source"] = "buffer", p["workgroup_size"] = 64;
    p["workgroups"] = 16, p["pixels_per_invocation"] = 4, p["replicas"] = 2;
    blur = e;
    blur["stage"] = "blur";
    blur["params"] = {{"strategy", "split"}, {"buffer_intermediate", true},
                      {"row_quads", true},   {"column_quads", true},
                      {"segment", 64},       {"tile_rows", 4},
                      {"tile_width", 128},   {"workgroup_size", 32},
                      {"prefetch", 1}};
  }
  ASSERT_FALSE(blur.is_null()) << cache.dump();
  cache["entries"].push_back(blur);
  std::ofstream(cache_path) << cache.dump();

  for (const char* format : {"RGBA32", "NV12", "YUYV", "GREY", "RGB24", "XR24"}) {
    for (const std::string options :
         {"", "--blur 5 --luma source --histogram bins=64", "--health=grid=3x2,roi=1,1,20,20",
          "--scopes waveform,parade,vectorscope,columns=9 --luma source"}) {
      SCOPED_TRACE(std::string(format) + " " + options);
      // 68 wide: the blur's 4-pixel quads; 45 rows: odd.
      const std::string run = "run --frames 2 --size 68x45 --format " + std::string(format) + " " +
                              options + " --backend ";
      const test::CommandResult gles = test::runShell(esframe + "-v " + run + "gles");
      ASSERT_EQ(gles.exit_code, 0) << gles.err;
      EXPECT_NE(gles.err.find("histogram: tuned"), std::string::npos) << gles.err;
      if (options.find("--blur") != std::string::npos) {
        EXPECT_NE(gles.err.find("blur: tuned"), std::string::npos) << gles.err;
      }
      const test::CommandResult reference = test::runShell(esframe + run + "reference");
      ASSERT_EQ(reference.exit_code, 0) << reference.err;
      EXPECT_EQ(test::withoutTimings(gles.out), test::withoutTimings(reference.out));
      if (options.find("--blur") != std::string::npos) continue;  // no pack stage either way
      // At GLES 3.1's minimum limits the frame difference has no sixth storage block for a
      // packed frame: with --health the frame is imported into an image and packed there.
      const char* limits = std::getenv("ESFRAME_GL_LIMITS");
      const bool packs = options.find("--health") != std::string::npos && limits &&
                         std::string(limits) == "gles31-min";
      // The scopes count the packed buffer the histogram reads: the frame needs no image.
      if (options.find("--scopes") != std::string::npos) {
        EXPECT_NE(gles.err.find("scopes packed->counts"), std::string::npos) << gles.err;
        EXPECT_NE(gles.err.find("no RGBA result"), std::string::npos) << gles.err;
      }
      int frames = 0;
      for (const test::OrderedJson& line : test::parseJsonLines(gles.out)) {
        if (!line.contains("timing_ms")) continue;  // a health event
        ++frames;
        EXPECT_TRUE(line["timing_ms"].contains("import")) << line["timing_ms"].dump();
        EXPECT_EQ(line["timing_ms"].contains("pack"), packs) << line["timing_ms"].dump();
      }
      EXPECT_EQ(frames, 2);
    }
  }
}

}  // namespace
}  // namespace esf
