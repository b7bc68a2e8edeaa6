// `esframe run --detect crop,blur,block` against ffmpeg 5.1's cropdetect, blurdetect and
// blockdetect themselves, frame by frame, on every backend: clips made by ffmpeg (a picture
// inside black borders that moves, fades to black, holds a frame and gets noise, then colour
// bars without borders and a blurred ramp of steps) in 4:2:0, 4:2:2 and 4:4:4, limited and full
// range, at an odd size (Y4M), as NV12, YUYV, RGB24 and GREY raw files, and a heavily compressed
// MJPEG decoded to its planes. Each clip runs with ffmpeg's defaults and with other values of
// every key. Each figure is compared as ffmpeg prints it into the frame's metadata
// (metadata=mode=print):
//   lavfi.cropdetect.x1 x2 y1 y2 w h x y   "%d" (av_dict_set_int)
//   lavfi.blur, lavfi.block                "%f" of the float ("nan" / "-nan": JSONL null)
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>

#include "tests/apps/esframe/ffmpeg_clip.hpp"
#include "tests/apps/esframe/ffmpeg_print.hpp"
#include "tests/apps/esframe/run_test_util.hpp"
#include "tests/core/outputs/csv_test_util.hpp"

namespace esf {
namespace {

using test::OrderedJson;
using test::parseMetadata;
using test::printfNumber;

using Clip = test::FfmpegClip;

// The detectors' settings: ffmpeg's defaults, and another value of every key.
struct Settings {
  const char* name;
  const char* esframe;  // --detect
  const char* crop;     // ffmpeg's filters
  const char* blur;
  const char* block;
};
constexpr Settings kSettings[] = {
    {"defaults", "crop,blur,block", "cropdetect", "blurdetect", "blockdetect"},
    {"keys",
     "crop,limit=0.1,round=4,reset=5,skip=1,max_outliers=1,blur,low=0.05,high=0.15,radius=20,"
     "block_pct=50,block_width=32,block_height=24,planes=7,block,period_min=4,period_max=12,"
     "planes=7",
     "cropdetect=limit=0.1:round=4:reset=5:skip=1:max_outliers=1",
     "blurdetect=low=0.05:high=0.15:radius=20:block_pct=50:block_width=32:block_height=24:planes=7",
     "blockdetect=period_min=4:period_max=12:planes=7"},
};

// The clip: a 64x38 picture inside black borders (moving, fading to black, a held frame, noise),
// then colour bars over the whole frame, then a ramp of steps under a Gaussian blur.
std::string graph(const Clip& c) {
  const std::string s = "s=64x38:r=10", pad = ",pad=96:54:14:8";
  return "testsrc2=" + s + ":d=0.8" + pad + "[a];testsrc2=" + s + ":d=0.5,fade=t=out:st=0:d=0.5" +
         pad + "[b];testsrc2=" + s + ":d=0.1,loop=loop=5:size=1" + pad + "[c];testsrc2=" + s +
         ":d=0.6,noise=alls=60:allf=t" + pad +
         "[d];smptebars=s=96x54:r=10:d=0.4[e];nullsrc=s=96x54:r=10:d=0.4,format=yuv420p,"
         "geq=lum=16+28*floor(X/12):cb=128:cr=128,gblur=sigma=2[f];"
         "[a][b][c][d][e][f]concat=n=6:v=1:a=0,scale=" +
         (c.odd_size ? "97:55" : "96:54") + (c.full_range ? ":out_range=full" : "") +
         ",format=" + c.ffmpeg_format;
}

class RunDetect : public testing::TestWithParam<Clip> {};

TEST_P(RunDetect, EveryFigureEqualsFfmpegsOnEveryBackend) {
  const Clip& c = GetParam();
  test::ScratchDir scratch;
  const bool raw = *c.esframe_format != 0;
  const std::filesystem::path clip = scratch.path / (raw ? "clip.raw" : "clip.y4m");
  std::string make = "ffmpeg -v error -filter_complex '" + graph(c) + "' " +
                     (c.full_range ? "-color_range pc " : "") + (raw ? "-f rawvideo " : "") +
                     "-y '" + clip.string() + "'";
  if (c.mjpeg) {
    const std::string jpeg = (scratch.path / "clip.mjpeg").string();
    make = "ffmpeg -v error -filter_complex '" + graph(c) + "' -c:v mjpeg -q:v 31 -y '" + jpeg +
           "' && ffmpeg -v error -i '" + jpeg + "' -f rawvideo -y '" + clip.string() + "'";
  }
  test::CommandResult made = test::runShell(make);
  ASSERT_EQ(made.exit_code, 0) << make << "\n" << made.err;
  const std::string input = raw ? std::string("-f rawvideo -pix_fmt ") + c.ffmpeg_format +
                                      " -s 96x54 -r 10 -i '" + clip.string() + "'"
                                : "-i '" + clip.string() + "'";

  std::map<std::string, int> compared;  // per figure, over settings and backends
  for (const Settings& settings : kSettings) {
    // One ffmpeg run per filter: each then reads the frame in a format of its own list (RGB:
    // cropdetect rgb24 itself, blurdetect and blockdetect gbrp).
    std::map<int, std::map<std::string, std::string>> ffmpeg;
    for (const char* filter : {settings.crop, settings.blur, settings.block}) {
      const std::filesystem::path meta = scratch.path / "meta.txt";
      const std::string print = "ffmpeg -hide_banner -nostats " + input + " -vf '" + filter +
                                ",metadata=mode=print:file=" + meta.string() + "' -f null -";
      test::CommandResult printed = test::runShell(print);
      ASSERT_EQ(printed.exit_code, 0) << print << "\n" << printed.err;
      std::ifstream in(meta);
      for (const auto& [n, m] : parseMetadata(std::string(std::istreambuf_iterator<char>(in), {})))
        ffmpeg[n].insert(m.begin(), m.end());
    }
    // Every frame has a blur and a block figure; the clip has what each detector is for.
    const size_t frames_made = ffmpeg.size();
    ASSERT_GE(frames_made, 33u) << settings.name;
    int cropped = 0, uncropped = 0, nan_blur = 0;
    for (const auto& [n, m] : ffmpeg) {
      nan_blur += m.at("lavfi.blur").find("nan") != std::string::npos;
      if (!m.contains("lavfi.cropdetect.w")) continue;
      (m.at("lavfi.cropdetect.w") == "96" || m.at("lavfi.cropdetect.w") == "97" ? uncropped
                                                                                : cropped)++;
    }
    EXPECT_GE(cropped, 10) << settings.name;
    EXPECT_GE(uncropped, 1) << settings.name;

    for (const char* backend : {"reference", "cpu", "gles"}) {
      std::vector<std::string> args = {"run",   "--source", clip.string(),   "--backend",
                                       backend, "--detect", settings.esframe};
      if (raw) {
        for (const char* a : {"--format", c.esframe_format, "--size", "96x54"}) args.push_back(a);
      }
      const std::vector<OrderedJson> frames = test::parseJsonLines(test::runOk(args));
      EXPECT_EQ(frames.size(), frames_made) << backend;
      for (const OrderedJson& j : frames) {
        const int seq = j["seq"].get<int>();
        SCOPED_TRACE(testing::Message()
                     << c.name << " " << settings.name << " " << backend << " frame " << seq);
        const auto it = ffmpeg.find(seq);
        if (it == ffmpeg.end()) {
          ADD_FAILURE() << "ffmpeg printed no frame " << seq;
          continue;
        }
        const auto& m = it->second;
        const bool skipped = !m.contains("lavfi.cropdetect.x1");
        EXPECT_EQ(j.contains("cropdetect"), !skipped);
        if (!skipped && j.contains("cropdetect")) {
          const OrderedJson& crop = j["cropdetect"];
          for (const char* name : {"x1", "x2", "y1", "y2", "w", "h", "x", "y"}) {
            EXPECT_EQ(std::to_string(crop[name].get<int>()),
                      m.at(std::string("lavfi.cropdetect.") + name))
                << name;
            ++compared[std::string("cropdetect.") + name];
          }
          EXPECT_EQ(crop["crop"].get<std::string>(),
                    m.at("lavfi.cropdetect.w") + ":" + m.at("lavfi.cropdetect.h") + ":" +
                        m.at("lavfi.cropdetect.x") + ":" + m.at("lavfi.cropdetect.y"));
        }
        for (const char* name : {"blur", "block"}) {
          const std::string expected = m.at(std::string("lavfi.") + name);
          ASSERT_TRUE(j.contains(name)) << name;
          if (j[name].is_null())
            EXPECT_NE(expected.find("nan"), std::string::npos) << name;
          else
            EXPECT_EQ(printfNumber("%f", j[name].get<double>()), expected) << name;
          ++compared[name];
        }
      }
    }
    std::printf("%s %s: %zu frames, %d with nan blur\n", c.name, settings.name, frames_made,
                nan_blur);
  }
  for (const auto& [figure, n] : compared)
    std::printf("%s %s: %d compared with ffmpeg's%s\n", c.name, figure.c_str(), n,
                HasFailure() ? " (failures above)" : ", all equal");
}

INSTANTIATE_TEST_SUITE_P(
    Clips, RunDetect,
    testing::Values(Clip{"Yuv420Limited", "yuv420p", "", false, true, false},
                    Clip{"Yuv420Full", "yuv420p", "", true, true, false},
                    Clip{"Yuv422Limited", "yuv422p", "", false, true, false},
                    Clip{"Yuv444Full", "yuv444p", "", true, true, false},
                    Clip{"Nv12", "nv12", "NV12", false, false, false},
                    Clip{"Yuyv", "yuyv422", "YUYV", true, false, false},
                    Clip{"Rgb24", "rgb24", "RGB24", false, false, false},
                    Clip{"Grey", "gray", "GREY", false, false, false},
                    Clip{"MjpegLowestQuality", "yuvj420p", "YU12", true, false, true}),
    [](const testing::TestParamInfo<Clip>& i) { return std::string(i.param.name); });

// Without --detect there is none of its keys; a bad value is one line naming the key.
TEST(RunDetectOption, OffPrintsNoneAndBadValuesNameTheKey) {
  std::vector<std::string> args = {"run",    "--frames", "1",        "--backend", "cpu",
                                   "--size", "64x48",    "--format", "YUYV"};
  std::vector<OrderedJson> frames = test::parseJsonLines(test::runOk(args));
  ASSERT_EQ(frames.size(), 1u);
  for (const char* key : {"cropdetect", "blur", "block", "TOUT", "VREP"})
    EXPECT_FALSE(frames[0].contains(key)) << key;
  // skip=0: the first frame has cropdetect's figures.
  args.insert(args.end(), {"--detect", "crop,skip=0,blur,block"});
  frames = test::parseJsonLines(test::runOk(args));
  ASSERT_EQ(frames.size(), 1u);
  for (const char* key : {"cropdetect", "blur", "block"}) EXPECT_TRUE(frames[0].contains(key));

  for (const auto& [text, named] :
       std::vector<std::pair<std::string, std::string>>{{"crop,limit=x", "limit"},
                                                        {"blur,radius=0", "radius"},
                                                        {"block,period_max=65", "period_max"},
                                                        {"blur,planes=16", "planes"},
                                                        {"crop,round=-1", "round"},
                                                        {"crop,radius=3", "radius"},
                                                        {"focus", "focus"},
                                                        {"limit=3", "limit"},
                                                        {"crop,crop", "crop"}}) {
    test::CommandResult r = test::runEsframe({"run", "--frames", "1", "--detect", text});
    EXPECT_EQ(r.exit_code, 2) << text;
    EXPECT_NE(r.err.find(named), std::string::npos) << text << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << text << ": " << r.err;
  }
}

// --output csv carries what the JSONL does: the signalstats columns (TOUT, VREP), cropdetect_*
// from the header on (empty on the skipped frames), blur and block.
TEST(RunDetectOption, CsvColumnsEqualTheJsonl) {
  std::vector<std::string> args = {"run",
                                   "--frames",
                                   "4",
                                   "--backend",
                                   "cpu",
                                   "--size",
                                   "64x48",
                                   "--format",
                                   "YUYV",
                                   "--detect",
                                   "crop,blur,block",
                                   "--signalstats-stat",
                                   "tout+vrep"};
  const std::vector<OrderedJson> frames = test::parseJsonLines(test::runOk(args));
  ASSERT_EQ(frames.size(), 4u);
  args.insert(args.end(), {"--output", "csv"});
  const std::string csv = test::runOk(args);
  std::vector<std::string> lines;
  for (size_t at = 0; at < csv.size();) {
    const size_t end = csv.find('\n', at);
    lines.push_back(csv.substr(at, end - at));
    at = end + 1;
  }
  ASSERT_EQ(lines.size(), 5u);
  const std::vector<std::string> header = test::splitCsv(lines[0]);
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const std::vector<std::string> row = test::splitCsv(lines[i + 1]);
    ASSERT_EQ(row.size(), header.size());
    for (const char* key :
         {"UMIN", "UAVG", "VHIGH", "UDIF", "BRNG", "SATAVG", "HUEMED", "HUEAVG", "TOUT", "VREP"})
      EXPECT_EQ(std::stod(test::csvColumn(header, row, key)), frames[i][key].get<double>()) << key;
    for (const char* key : {"blur", "block"}) {
      const std::string field = test::csvColumn(header, row, key);
      if (frames[i][key].is_null())
        EXPECT_EQ(field, "") << key;
      else
        EXPECT_EQ(std::stod(field), frames[i][key].get<double>()) << key;
    }
    ASSERT_EQ(frames[i].contains("cropdetect"), i >= 2);  // skip=2
    for (const char* key : {"x1", "x2", "y1", "y2", "w", "h", "x", "y"}) {
      const std::string field = test::csvColumn(header, row, std::string("cropdetect_") + key);
      if (i < 2)
        EXPECT_EQ(field, "") << key;
      else
        EXPECT_EQ(field, std::to_string(frames[i]["cropdetect"][key].get<int>())) << key;
    }
  }
}

}  // namespace
}  // namespace esf
