// `esframe run --signalstats` against ffmpeg 5.1's signalstats itself, frame by frame: clips made
// by ffmpeg (moving pictures, a fade to black, a held frame, noise, colour bars) in 4:2:0 and
// 4:2:2, limited and full range, at an odd size (Y4M), 4:4:4, and NV12 and YUYV raw files (which
// ffmpeg turns into its planar 4:2:0 / 4:2:2 without changing a sample). Each figure is
// printed as signalstats=stat=brng prints it into the frame's metadata (metadata=mode=print):
//   UMIN ULOW UHIGH UMAX VMIN VLOW VHIGH VMAX SATMIN SATLOW SATHIGH SATMAX HUEMED  "%d"
//   UAVG VAVG UDIF VDIF BRNG SATAVG HUEAVG TOUT VREP                                "%g"
// (TOUT and VREP with stat=tout+vrep, --signalstats-stat tout+vrep)
// and must be the same string on every backend.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "tests/apps/esframe/ffmpeg_clip.hpp"
#include "tests/apps/esframe/ffmpeg_print.hpp"
#include "tests/apps/esframe/run_test_util.hpp"

namespace esf {
namespace {

using test::OrderedJson;

using test::parseMetadata;
using test::printfNumber;

using Clip = test::FfmpegClip;

constexpr int kFrames = 30;  // 10 fps, 3 s

// The clip ffmpeg makes: moving, a fade to black, a held frame, noise, then colour bars.
std::string graph(const Clip& c) {
  const std::string s = "s=96x54:r=10";
  return "testsrc2=" + s + ":d=0.8[a];" + "testsrc2=" + s + ":d=0.5,fade=t=out:st=0:d=0.5[b];" +
         "testsrc2=" + s + ":d=0.1,loop=loop=5:size=1[c];" + "testsrc2=" + s +
         ":d=0.6,noise=alls=60:allf=t[d];" + "smptebars=" + s + ":d=0.5[e];" +
         "[a][b][c][d][e]concat=n=5:v=1:a=0,scale=" + (c.odd_size ? "97:55" : "96:54") +
         (c.full_range ? ":out_range=full" : "") + ",format=" + c.ffmpeg_format;
}

class RunSignalstats : public testing::TestWithParam<Clip> {};

TEST_P(RunSignalstats, EveryChromaFigureEqualsFfmpegsOnEveryBackend) {
  const Clip& c = GetParam();
  test::ScratchDir scratch;
  const bool raw = *c.esframe_format != 0;
  const std::filesystem::path clip = scratch.path / (raw ? "clip.raw" : "clip.y4m"),
                              meta = scratch.path / "meta.txt";
  const std::string make = "ffmpeg -v error -filter_complex '" + graph(c) + "' " +
                           (c.full_range ? "-color_range pc " : "") + (raw ? "-f rawvideo " : "") +
                           "-y '" + clip.string() + "'";
  test::CommandResult made = test::runShell(make);
  ASSERT_EQ(made.exit_code, 0) << make << "\n" << made.err;
  const std::string input = raw ? std::string("-f rawvideo -pix_fmt ") + c.ffmpeg_format +
                                      " -s 96x54 -r 10 -i '" + clip.string() + "'"
                                : "-i '" + clip.string() + "'";
  const std::string print =
      "ffmpeg -hide_banner -nostats " + input +
      " -vf 'signalstats=stat=brng+tout+vrep,metadata=mode=print:file=" + meta.string() +
      "' -f null -";
  test::CommandResult printed = test::runShell(print);
  ASSERT_EQ(printed.exit_code, 0) << print << "\n" << printed.err;
  std::ifstream in(meta);
  const auto ffmpeg = parseMetadata(std::string(std::istreambuf_iterator<char>(in), {}));
  ASSERT_EQ(ffmpeg.size(), size_t(kFrames));

  // The clip has what each figure is for: chroma moving (UDIF above 0), a held frame (UDIF and
  // VDIF 0 after the first frame), noise reaching both ends of the range (and out of the
  // broadcast range: BRNG above 0).
  int moving = 0, held = 0, extremes = 0, out_of_range = 0, outliers = 0, repeated = 0;
  for (const auto& [n, m] : ffmpeg) {
    if (n == 0) continue;
    moving += m.at("lavfi.signalstats.UDIF") != "0";
    held += m.at("lavfi.signalstats.UDIF") == "0" && m.at("lavfi.signalstats.VDIF") == "0";
    extremes += m.at("lavfi.signalstats.UMIN") == "0" || m.at("lavfi.signalstats.VMAX") == "255";
    out_of_range += m.at("lavfi.signalstats.BRNG") != "0";
    outliers += m.at("lavfi.signalstats.TOUT") != "0";
    repeated += m.at("lavfi.signalstats.VREP") != "0";
  }
  EXPECT_GE(moving, 10);
  EXPECT_GE(held, 4);
  EXPECT_GE(extremes, 1);
  EXPECT_GE(out_of_range, 1);
  EXPECT_GE(outliers, 1);
  EXPECT_GE(repeated, 1);

  for (const char* backend : {"reference", "cpu", "gles"}) {
    std::vector<std::string> args = {"run",   "--source",           clip.string(), "--backend",
                                     backend, "--signalstats-stat", "tout+vrep"};
    if (raw) {
      for (const char* a : {"--format", c.esframe_format, "--size", "96x54"}) args.push_back(a);
    }
    const std::vector<OrderedJson> frames = test::parseJsonLines(test::runOk(args));
    EXPECT_EQ(frames.size(), size_t(kFrames)) << backend;
    int compared = 0;
    for (const OrderedJson& j : frames) {
      const int seq = j["seq"].get<int>();
      SCOPED_TRACE(testing::Message() << c.name << " " << backend << " frame " << seq);
      const auto it = ffmpeg.find(seq);
      if (it == ffmpeg.end()) {
        ADD_FAILURE() << "ffmpeg printed no frame " << seq;
        continue;
      }
      // "%.17g" of an integral value is ffmpeg's "%d" of it, and shows any fraction.
      for (const char* name : {"UMIN", "ULOW", "UHIGH", "UMAX", "VMIN", "VLOW", "VHIGH", "VMAX",
                               "SATMIN", "SATLOW", "SATHIGH", "SATMAX", "HUEMED"}) {
        EXPECT_EQ(printfNumber("%.17g", j[name].get<double>()),
                  it->second.at(std::string("lavfi.signalstats.") + name))
            << name;
        ++compared;
      }
      for (const char* name :
           {"UAVG", "VAVG", "UDIF", "VDIF", "BRNG", "SATAVG", "HUEAVG", "TOUT", "VREP"}) {
        EXPECT_EQ(printfNumber("%g", j[name].get<double>()),
                  it->second.at(std::string("lavfi.signalstats.") + name))
            << name;
        ++compared;
      }
    }
    std::printf("%s %s: %d frames x 22 figures = %d compared with ffmpeg's%s\n", c.name, backend,
                int(frames.size()), compared, HasFailure() ? " (failures above)" : ", all equal");
  }
}

INSTANTIATE_TEST_SUITE_P(Clips, RunSignalstats,
                         testing::Values(Clip{"Yuv420Limited", "yuv420p", "", false, true},
                                         Clip{"Yuv420Full", "yuv420p", "", true, true},
                                         Clip{"Yuv422Limited", "yuv422p", "", false, true},
                                         Clip{"Yuv422Full", "yuv422p", "", true, true},
                                         Clip{"Yuv444Limited", "yuv444p", "", false, true},
                                         Clip{"Nv12", "nv12", "NV12", false, false},
                                         Clip{"Yuyv", "yuyv422", "YUYV", true, false}),
                         [](const testing::TestParamInfo<Clip>& i) {
                           return std::string(i.param.name);
                         });

// Without --signalstats none of its members is printed; RGB sources have none with it.
TEST(RunSignalstatsOption, OffPrintsNoChromaAndRgbSourcesHaveNone) {
  for (const char* source_format : {"YUYV", "RGB24"}) {
    for (const bool on : {false, true}) {
      std::vector<std::string> args = {"run",    "--frames", "1",        "--backend",  "cpu",
                                       "--size", "64x48",    "--format", source_format};
      if (on) args.push_back("--signalstats");
      const std::vector<OrderedJson> frames = test::parseJsonLines(test::runOk(args));
      ASSERT_EQ(frames.size(), 1u);
      EXPECT_EQ(frames[0].contains("UMIN"), on && std::string(source_format) == "YUYV")
          << source_format << " " << on;
      EXPECT_EQ(frames[0].contains("BRNG"), on && std::string(source_format) == "YUYV");
    }
  }
}

}  // namespace
}  // namespace esf
