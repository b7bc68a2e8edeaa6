// `esframe run --source -`: ffmpeg's Y4M on a pipe, raw frames on stdin, and a pipe cut inside a
// frame. The oracle is a Y4M parser and luma histogram written here (no esframe code), run on
// the very bytes esframe read (tee keeps a copy).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "tests/apps/esframe/run_test_util.hpp"

namespace esf {
namespace {

using test::OrderedJson;

// The Y planes of a 4:2:0 Y4M file, frame by frame.
struct Y4mLuma {
  int width = 0, height = 0;
  std::vector<std::string> frames;        // W*H luma bytes each
  std::vector<size_t> frame_data_offset;  // where each frame's planes start in the file
};

Y4mLuma parseY4m420(const std::string& bytes) {
  Y4mLuma y;
  const size_t header_end = bytes.find('\n');
  EXPECT_NE(header_end, std::string::npos);
  std::istringstream header(bytes.substr(0, header_end));
  std::string token;
  header >> token;
  EXPECT_EQ(token, "YUV4MPEG2");
  while (header >> token) {
    if (token[0] == 'W') y.width = std::stoi(token.substr(1));
    if (token[0] == 'H') y.height = std::stoi(token.substr(1));
    if (token[0] == 'C') {
      EXPECT_EQ(token.substr(0, 4), "C420") << token;
    }
  }
  const size_t luma = size_t(y.width) * size_t(y.height);
  const size_t chroma = size_t((y.width + 1) / 2) * size_t((y.height + 1) / 2);
  size_t at = header_end + 1;
  while (at < bytes.size()) {
    const size_t line_end = bytes.find('\n', at);
    EXPECT_EQ(bytes.compare(at, 5, "FRAME"), 0) << "at byte " << at;
    if (line_end == std::string::npos) break;
    at = line_end + 1;
    if (at + luma + 2 * chroma > bytes.size()) break;  // a cut frame
    y.frame_data_offset.push_back(at);
    y.frames.push_back(bytes.substr(at, luma));
    at += luma + 2 * chroma;
  }
  return y;
}

std::array<uint64_t, 256> histogramOf(const std::string& luma) {
  std::array<uint64_t, 256> h{};
  for (unsigned char v : luma) ++h[v];
  return h;
}

std::array<uint64_t, 256> lumaHistogram(const OrderedJson& line) {
  std::array<uint64_t, 256> h{};
  const auto& l = line.at("hist").at("l");
  EXPECT_EQ(l.size(), 256u);
  for (size_t i = 0; i < l.size() && i < h.size(); ++i) h[i] = l[i].get<uint64_t>();
  return h;
}

std::string readBinary(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// `s` as one word of a POSIX shell command line.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

const char* const kFfmpegY4m =
    "ffmpeg -nostdin -v error -f lavfi -i testsrc2=size=160x90:rate=10 -vf scale=161:91 "
    "-frames:v 5 -pix_fmt yuv420p -f yuv4mpegpipe -";

// ffmpeg is in toolchain/setup-debian.sh's default packages: CI has it.
void requireFfmpeg() {
  ASSERT_EQ(test::runShell("command -v ffmpeg").exit_code, 0)
      << "ffmpeg is missing: run toolchain/setup-debian.sh";
}

TEST(RunStdin, FfmpegY4mPipeLumaEqualsTheFramesHistogram) {
  requireFfmpeg();
  test::ScratchDir dir;
  const std::filesystem::path copy = dir.path / "clip.y4m";
  const test::CommandResult r =
      test::runShell("bash -o pipefail -c " +
                     quoted(std::string(kFfmpegY4m) + " | tee " + quoted(copy.string()) + " | " +
                            quoted(test::esframeBinary()) +
                            " run --backend cpu --source - --luma source --histogram channels=l"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Y4mLuma expect = parseY4m420(readBinary(copy));
  ASSERT_EQ(expect.width, 161);
  ASSERT_EQ(expect.frames.size(), 5u);
  const std::vector<OrderedJson> lines = test::parseJsonLines(r.out);
  ASSERT_EQ(lines.size(), expect.frames.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].at("source"), "stdin");
    EXPECT_EQ(lines[i].at("seq"), i);
    EXPECT_EQ(lines[i].at("format"), "YU12");
    EXPECT_EQ(lumaHistogram(lines[i]), histogramOf(expect.frames[i])) << "frame " << i;
  }
}

// The Y planes alone, as headerless GREY frames on stdin (the first bytes esframe reads to look
// for a Y4M header belong to frame 0).
TEST(RunStdin, RawGreyFramesOnStdin) {
  requireFfmpeg();
  const test::CommandResult y4m = test::runShell(kFfmpegY4m);
  ASSERT_EQ(y4m.exit_code, 0) << y4m.err;
  const Y4mLuma expect = parseY4m420(y4m.out);
  std::string raw;
  for (const std::string& f : expect.frames) raw += f;
  const test::CommandResult r =
      test::runEsframe({"run", "--source", "-", "--size", "161x91", "--format", "GREY", "--luma",
                        "source", "--histogram", "channels=l"},
                       raw);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<OrderedJson> lines = test::parseJsonLines(r.out);
  ASSERT_EQ(lines.size(), expect.frames.size());
  for (size_t i = 0; i < lines.size(); ++i)
    EXPECT_EQ(lumaHistogram(lines[i]), histogramOf(expect.frames[i])) << "frame " << i;
}

// A pipe that ends inside frame 3: frames 0-2 are delivered, then one error line and exit 5.
TEST(RunStdin, TruncatedPipeDeliversWholeFramesThenExits5) {
  requireFfmpeg();
  test::ScratchDir dir;
  const std::filesystem::path copy = dir.path / "clip.y4m";
  ASSERT_EQ(test::runShell(std::string(kFfmpegY4m) + " > " + quoted(copy.string())).exit_code, 0);
  const std::string bytes = readBinary(copy);
  const Y4mLuma whole = parseY4m420(bytes);
  ASSERT_EQ(whole.frames.size(), 5u);
  const size_t cut = whole.frame_data_offset[3] + 1000;
  const test::CommandResult r =
      test::runShell("head -c " + std::to_string(cut) + " " + quoted(copy.string()) + " | " +
                     quoted(test::esframeBinary()) +
                     " run --backend cpu --source - --luma source --histogram channels=l");
  EXPECT_EQ(r.exit_code, 5) << r.err;
  const std::vector<OrderedJson> lines = test::parseJsonLines(r.out);
  ASSERT_EQ(lines.size(), 3u);
  for (size_t i = 0; i < lines.size(); ++i)
    EXPECT_EQ(lumaHistogram(lines[i]), histogramOf(whole.frames[i])) << "frame " << i;
  const size_t frame_bytes = 161 * 91 + 2 * 81 * 46;
  EXPECT_EQ(r.err, "esframe: error: stdin: truncated Y4M frame 3 (1000 of " +
                       std::to_string(frame_bytes) + " bytes)\n");
}

// SIGTERM while esframe waits for a stream's first bytes: a clean stop, exit 0, nothing said.
TEST(RunStdin, SignalWhileWaitingForInputExits0) {
  const test::CommandResult r = test::runShell(
      "bash -c " +
      quoted("sleep 3 | " + quoted(test::esframeBinary()) +
             " run --backend cpu --source - & pid=$!; sleep 1; kill -TERM $pid; wait $pid"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
}

// SIGTERM while a stream stalls after its first frame (the read-ahead thread waits in its read,
// the run loop for the frame): a clean stop, exit 0. The shell holds the pipe open, so only the
// signal can end the run; timeout(1) turns a hang into exit 124 (137 when TERM is not enough).
TEST(RunStdin, SignalWhileAStreamStallsMidwayExits0) {
  const test::CommandResult r = test::runShell(
      "bash -c " +
      quoted("d=$(mktemp -d) && mkfifo $d/p || exit 99; timeout -k 5 20 " +
             quoted(test::esframeBinary()) +
             " run --backend cpu --source - <$d/p >/dev/null & pid=$!; exec 3>$d/p; "
             "printf 'YUV4MPEG2 W4 H2 F30:1\\nFRAME\\n' >&3; head -c 12 /dev/zero >&3; "
             "sleep 1; kill -TERM $pid; wait $pid; rc=$?; exec 3>&-; rm -r $d; exit $rc"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace esf
