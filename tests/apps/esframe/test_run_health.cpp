// `esframe run --health` against ffmpeg itself, frame by frame: a clip made by ffmpeg (moving
// pictures, a fade to black and black, a held frame, a blur ramp, noise, cuts) at an odd size,
// in limited and full range; each figure printed as ffmpeg's filter prints it must be the same
// string on every backend, and every event must be one of ffmpeg's intervals or scene lines.
//   signalstats YDIF, siti SI and TI, scdet mafd and score, entropy (normal, Y): per frame;
//   blackdetect's intervals, scdet's scene changes, freezedetect's start and end (on the Y
//   plane alone: extractplanes=y, as esframe's figures are of the luma).
// blackdetect in ffmpeg 5.1 sets its threshold by pixel format (yuvj* full range, the rest
// limited) where esframe reads the frame's range: it is compared on the limited-range clip.
//
// On a machine without ffmpeg (the NVIDIA device, bench/nvidia/health.sh), ESFRAME_HEALTH_ORACLE
// names a folder with the clips and ffmpeg's outputs recorded elsewhere (a folder without them
// is filled: the recording run), and ESFRAME_HEALTH_BACKENDS the backends to compare.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "tests/apps/esframe/ffmpeg_print.hpp"
#include "tests/apps/esframe/run_test_util.hpp"

namespace esf {
namespace {

using test::OrderedJson;

using test::parseMetadata;
using test::printfNumber;
// ffmpeg 5.1's times: av_ts2timestr, "%.6g" of seconds.
std::string timeText(uint64_t ns) {
  return printfNumber("%.6g", double(ns) / 1e9);
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The test clip: 10 fps, 106 frames, made at 96x54 (testsrc2 takes even sizes) and scaled to
// the odd 97x55.
void makeClip(const std::filesystem::path& out, bool full_range) {
  const std::string s = "s=96x54:r=10";
  const std::string graph =
      "testsrc2=" + s + ":d=2[a];" +                          // moving, 0-2 s
      "testsrc2=" + s + ":d=1,fade=t=out:st=0.5:d=0.5[b];" +  // fading out
      "color=black:" + s + ":d=1.5[c];" +                     // black, 1.5 s
      "testsrc2=" + s + ":d=0.1,loop=loop=24:size=1[d];" +    // held, 2.5 s
      "testsrc=" + s + ":d=0.5,gblur=sigma=0.5[e];" +         // the blur ramp
      "testsrc=" + s + ":d=0.5,gblur=sigma=2[f];" +           //
      "testsrc=" + s + ":d=0.5,gblur=sigma=6[g];" +           //
      "testsrc2=" + s + ":d=1,noise=alls=40:allf=t[h];" +     // noise
      "smptebars=" + s + ":d=0.5[i];" +                       // a cut
      "rgbtestsrc=" + s + ":d=0.6[j];" +                      // and another
      "[a][b][c][d][e][f][g][h][i][j]concat=n=10:v=1:a=0,scale=97:55,format=yuv420p";
  const std::string cmd = "ffmpeg -v error -filter_complex '" + graph + "' " +
                          (full_range ? "-color_range pc " : "") + "-y '" + out.string() + "'";
  test::CommandResult r = test::runShell(cmd);
  ASSERT_EQ(r.exit_code, 0) << cmd << "\n" << r.err;
}

struct Ffmpeg {
  std::map<int, std::map<std::string, std::string>> frames;  // signalstats siti scdet entropy
  std::map<int, std::map<std::string, std::string>> freeze;  // freezedetect's event frames
  std::vector<std::string> black_lines;                      // blackdetect's intervals
  std::vector<std::string> scene_lines;                      // scdet's changes
};

constexpr const char* kHealthOptions = "black_min_duration=1,freeze_duration=1,threshold=10";

// Runs ffmpeg on dir/clip.y4m into dir (meta.txt, freeze.txt, ffmpeg.log), unless a recorded
// run is there already; parses what it printed.
Ffmpeg runFfmpeg(const std::filesystem::path& dir) {
  Ffmpeg f;
  const std::string in = "'" + (dir / "clip.y4m").string() + "'";
  const std::filesystem::path meta = dir / "meta.txt", freeze = dir / "freeze.txt",
                              log = dir / "ffmpeg.log";
  if (!std::filesystem::exists(log)) {
    test::CommandResult a = test::runShell(
        "ffmpeg -hide_banner -nostats -i " + in +
        " -vf 'signalstats,siti,scdet=t=10,entropy,blackdetect=d=1:pix_th=0.1:pic_th=0.98,"
        "metadata=mode=print:file=" +
        meta.string() + "' -f null -");
    EXPECT_EQ(a.exit_code, 0) << a.err;
    test::CommandResult b =
        test::runShell("ffmpeg -hide_banner -nostats -i " + in +
                       " -vf 'extractplanes=y,freezedetect=n=0.001:d=1,metadata=mode=print:file=" +
                       freeze.string() + "' -f null -");
    EXPECT_EQ(b.exit_code, 0) << b.err;
    std::ofstream(log) << a.err;
  }
  const std::string err = readFile(log);
  f.frames = parseMetadata(readFile(meta));
  f.freeze = parseMetadata(readFile(freeze));
  const std::regex black(R"(black_start:\S+ black_end:\S+ black_duration:\S+)");
  const std::regex scene(R"(lavfi\.scd\.score: \S+, lavfi\.scd\.time: \S+)");
  for (std::sregex_iterator i(err.begin(), err.end(), black), end; i != end; ++i)
    f.black_lines.push_back(i->str());
  for (std::sregex_iterator i(err.begin(), err.end(), scene), end; i != end; ++i)
    f.scene_lines.push_back(i->str());
  return f;
}

struct Counts {
  int figures = 0, events = 0;
};

// One backend's run against ffmpeg's output; returns how many figures and events it compared.
Counts compare(const Ffmpeg& f, const std::filesystem::path& clip, const std::string& backend,
               bool compare_black) {
  const std::string out =
      test::runOk({"run", "--source", clip.string(), "--backend", backend,
                   "--health=" + std::string(kHealthOptions), "--histogram", "bins=16,channels=l"});
  Counts n;
  std::vector<OrderedJson> frames, events;
  for (OrderedJson& j : test::parseJsonLines(out))
    (j.contains("event") ? events : frames).push_back(j);
  EXPECT_EQ(frames.size(), f.frames.size());
  for (const OrderedJson& j : frames) {
    const int seq = j["seq"].get<int>();
    SCOPED_TRACE(testing::Message() << backend << " frame " << seq);
    const auto it = f.frames.find(seq);
    if (it == f.frames.end()) {
      ADD_FAILURE() << "ffmpeg printed no frame " << seq;
      continue;
    }
    const std::map<std::string, std::string>& m = it->second;
    const OrderedJson& h = j["health"];
    const std::pair<std::string, std::string> pairs[] = {
        {m.at("lavfi.signalstats.YDIF"), printfNumber("%g", h["ydif"].get<double>())},
        {m.at("lavfi.siti.si"), printfNumber("%0.2f", h["si"].get<double>())},
        {m.at("lavfi.siti.ti"), printfNumber("%0.2f", h["ti"].get<double>())},
        {m.at("lavfi.scd.mafd"), printfNumber("%0.3f", h["scene_mafd"].get<double>())},
        {m.at("lavfi.scd.score"), printfNumber("%0.3f", h["scene_score"].get<double>())},
        {m.at("lavfi.entropy.entropy.normal.Y"), printfNumber("%f", h["entropy"].get<double>())},
    };
    const char* names[] = {"YDIF", "SI", "TI", "scdet mafd", "scdet score", "entropy"};
    for (size_t i = 0; i < std::size(pairs); ++i) {
      EXPECT_EQ(pairs[i].second, pairs[i].first) << names[i];
      ++n.figures;
    }
  }
  std::vector<std::string> black, scene;
  std::map<int, std::map<std::string, std::string>> freeze;
  uint64_t black_start = 0;
  for (const OrderedJson& e : events) {
    const std::string type = e["event"];
    if (type == "black_start") black_start = e["start_ns"].get<uint64_t>();
    if (type == "black_end") {
      EXPECT_EQ(e["start_ns"].get<uint64_t>(), black_start);
      black.push_back("black_start:" + timeText(e["start_ns"]) + " black_end:" +
                      timeText(e["end_ns"]) + " black_duration:" + timeText(e["duration_ns"]));
    }
    if (type == "scene_change")
      scene.push_back("lavfi.scd.score: " + printfNumber("%.3f", e["score"].get<double>()) +
                      ", lavfi.scd.time: " + timeText(e["ts_ns"]));
    const int seq = e["seq"].get<int>();
    if (type == "freeze_start")
      freeze[seq]["lavfi.freezedetect.freeze_start"] = timeText(e["start_ns"]);
    if (type == "freeze_end") {
      freeze[seq]["lavfi.freezedetect.freeze_duration"] = timeText(e["duration_ns"]);
      freeze[seq]["lavfi.freezedetect.freeze_end"] = timeText(e["end_ns"]);
    }
  }
  if (compare_black) {
    EXPECT_EQ(black, f.black_lines) << backend;
    n.events += int(black.size());
  }
  EXPECT_EQ(scene, f.scene_lines) << backend;
  EXPECT_EQ(freeze, f.freeze) << backend;
  n.events += int(scene.size() + freeze.size());
  return n;
}

class RunHealth : public testing::TestWithParam<bool> {};

std::vector<std::string> backends() {
  const char* list = std::getenv("ESFRAME_HEALTH_BACKENDS");
  std::vector<std::string> out;
  std::stringstream in(list && *list ? list : "reference,cpu,gles");
  for (std::string b; std::getline(in, b, ',');) out.push_back(b);
  return out;
}

TEST_P(RunHealth, EveryFigureAndEventEqualsFfmpegsOnEveryBackend) {
  const bool full_range = GetParam();
  test::ScratchDir scratch;
  std::filesystem::path dir = scratch.path;
  if (const char* oracle = std::getenv("ESFRAME_HEALTH_ORACLE"); oracle && *oracle) {
    dir = std::filesystem::path(oracle) / (full_range ? "full" : "limited");
    std::filesystem::create_directories(dir);
  }
  const std::filesystem::path clip = dir / "clip.y4m";
  if (!std::filesystem::exists(clip)) makeClip(clip, full_range);
  if (HasFatalFailure()) return;
  const Ffmpeg f = runFfmpeg(dir);
  ASSERT_EQ(f.frames.size(), 106u);
  // The clip has what each figure is for: a black interval, a freeze, scene changes.
  if (!full_range) {
    EXPECT_EQ(f.black_lines.size(), 1u);
  }
  EXPECT_GE(f.freeze.size(), 2u);
  EXPECT_GE(f.scene_lines.size(), 3u);
  for (const std::string& backend : backends()) {
    const Counts n = compare(f, clip, backend, !full_range);
    std::printf("%s %s range: %d figures and %d events compared with ffmpeg's%s\n", backend.c_str(),
                full_range ? "full" : "limited", n.figures, n.events,
                HasFailure() ? " (failures above)" : ", all equal");
  }
}

INSTANTIATE_TEST_SUITE_P(Ranges, RunHealth, testing::Values(false, true),
                         [](const testing::TestParamInfo<bool>& i) {
                           return i.param ? "FullRange" : "LimitedRange";
                         });

TEST(RunHealthOptions, BadValuesGiveOneLineNamingTheKey) {
  for (const char* bad : {"--health=pix_th=2", "--health=noise=abc", "--health=threshold=101",
                          "--health=speed=1", "--health=freeze_duration=-1"}) {
    test::CommandResult r = test::runEsframe({"run", "--frames", "1", "--backend", "cpu", bad});
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
    EXPECT_EQ(test::lineCount(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("--health"), std::string::npos) << r.err;
  }
  // Decibels, as freezedetect takes them: -60dB is 0.001 (and no scene change: no event line).
  test::CommandResult ok =
      test::runEsframe({"run", "--frames", "2", "--backend", "cpu",
                        "--health=noise=-60dB,threshold=100", "--size", "64x48"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(test::lineCount(ok.out), 2) << ok.out;
}

}  // namespace
}  // namespace esf
