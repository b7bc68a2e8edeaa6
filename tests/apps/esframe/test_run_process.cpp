// `esframe run` as a process: a closed stdout, SIGTERM mid-stream, and bad options.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tests/apps/esframe/run_test_util.hpp"
#include "tests/support/run_command.hpp"

namespace esf {
namespace {

using test::runEsframe;

// stderr without the backend choice that `--backend auto` logs once on a software renderer.
std::string withoutAutoBackendLine(const std::string& err) {
  const std::string prefix = "esframe: warning: backend auto: ";
  if (err.rfind(prefix, 0) != 0) return err;
  const size_t end = err.find('\n');
  return end == std::string::npos ? "" : err.substr(end + 1);
}

TEST(RunProcess, ClosedStdoutExitsZeroQuietly) {
  // No --frames: the pattern runs until head closes the pipe.
  test::CommandResult r =
      test::runShell("bash -c '\"" + test::esframeBinary() +
                         "\" run --size 32x32 | head -1; exit ${PIPESTATUS[0]}'",
                     60);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::lineCount(r.out), 1);
  EXPECT_EQ(withoutAutoBackendLine(r.err), "");
  EXPECT_TRUE(nlohmann::json::accept(r.out));  // one whole line
}

// Starts esframe with stdout on a pipe; returns its pid and the read end.
pid_t spawn(const std::vector<std::string>& args, int* out_fd) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(p[1], 1);
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 2);
    std::vector<char*> argv;
    std::string bin = test::esframeBinary();
    argv.push_back(bin.data());
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(p[1]);
  *out_fd = p[0];
  return pid;
}

TEST(RunProcess, SigtermMidStreamFinishesTheFrameAndExitsZero) {
  for (int sig : {SIGTERM, SIGINT}) {
    int fd = -1;
    pid_t pid = spawn({"run", "--size", "48x32"}, &fd);
    ASSERT_GT(pid, 0);
    std::string out;
    char buf[65536];
    while (std::count(out.begin(), out.end(), '\n') < 3) {
      ssize_t n = read(fd, buf, sizeof buf);
      ASSERT_GT(n, 0) << "esframe ended before three lines";
      out.append(buf, size_t(n));
    }
    kill(pid, sig);
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
    close(fd);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0);
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back(), '\n') << "a torn last line";
    size_t start = 0;
    while (start < out.size()) {  // every line whole JSON
      size_t end = out.find('\n', start);
      EXPECT_TRUE(nlohmann::json::accept(out.substr(start, end - start)));
      start = end + 1;
    }
  }
}

struct BadCase {
  std::vector<std::string> args;
  int exit_code;
  std::string names;  // the error line must contain this
};

// -v's closing line: the frame rate and the CPU time per frame after the first. On the CPU
// executor a 1280x720 frame's histogram costs the process well over 0.1 ms of CPU (its one
// thread reads every byte), so a clock that reads nothing or the wrong span fails here.
TEST(RunProcess, VerboseClosingLineGivesTheCpuTimePerFrame) {
  test::CommandResult r =
      runEsframe({"-v", "run", "--backend", "cpu", "--threads", "1", "--source", "pattern:loop=3",
                  "--size", "1280x720", "--frames", "12", "--output", "jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      r.err, m,
      std::regex("run: 12 frames in [0-9.]+ s; [0-9]+ frames per second and ([0-9.]+) ms of CPU "
                 "per frame \\(the process's user \\+ system, every thread\\), ([0-9.]+) ms of "
                 "it on the thread that runs the pipeline, after the first")))
      << r.err;
  const double cpu_ms = std::stod(m[1].str()), thread_ms = std::stod(m[2].str());
  EXPECT_GT(cpu_ms, 0.1);
  EXPECT_LT(cpu_ms, 10000.0);
  // One executor thread: the pipeline's thread does the frames' work, and is part of the whole.
  EXPECT_GT(thread_ms, 0.1);
  EXPECT_LE(thread_ms, cpu_ms);
}

// -v prints the frame plan once per format: the passes in order, with what each reads and writes.
TEST(RunProcess, VerbosePrintsTheFramePlan) {
  test::CommandResult r = runEsframe({"-v", "run", "--backend", "cpu", "--source", "pattern",
                                      "--format", "NV12", "--size", "64x48", "--frames", "3",
                                      "--luma", "source", "--blur", "3", "--output", "jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string plan =
      "frame plan: cpu NV12: import frame->image x2, blur image->image x2, histogram "
      "image->counts x2, scale counts->scales; L from the source's luma\n";
  const size_t at = r.err.find(plan);
  ASSERT_NE(at, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("frame plan:", at + 1), std::string::npos) << "printed once: " << r.err;
}

TEST(RunProcess, BadOptionsGiveOneLineErrors) {
  const std::vector<BadCase> cases = {
      {{"--histogram", "bins=0"}, 2, "bins"},
      {{"--histogram", "bins=257"}, 2, "bins"},
      {{"--histogram", "channels=rgbx"}, 2, "channels"},
      {{"--histogram", "strategy=fastest"}, 2, "fastest"},
      {{"--blur", "4"}, 2, "odd"},
      {{"--blur", "3:0"}, 2, "iterations"},
      {{"--resize", "10by10"}, 2, "--resize"},
      {{"--output", "xml"}, 2, "unknown output 'xml'"},
      {{"--output", "png"}, 2, "--output png"},
      {{"--output", "jsonl", "--output", "csv"}, 2, "stdout"},
      {{"--backend", "vulkan"}, 2, "backend"},
      {{"--source", "/nonexistent/clip.y4m"}, 1, "/nonexistent/clip.y4m"},
      {{"--size", "64x48", "--resize", "65x10"},
       2,
       "--resize 65x10: larger than the source's 64x48"},
      {{"--output", "png:shots", "--output", "png:shots/"}, 2, "png:shots/: given twice"},
      {{"--output", "prom:m.prom", "--output", "prom:./m.prom"}, 2, "prom:./m.prom: given twice"},
      // CLI11's own range check named the largest double's 309 digits.
      {{"--frames", "-1"}, 2, "--frames: '-1': expected a whole number >= 0"},
      {{"--frames", "1.5"}, 2, "expected a whole number >= 0"},
      {{"--fps", "-5"}, 2, "--fps: '-5': expected a number >= 0"},
      {{"--fps", "nan"}, 2, "expected a number >= 0"},
  };
  for (const BadCase& c : cases) {
    std::vector<std::string> args = {"run"};
    if (c.args[0] != "--frames") args.insert(args.end(), {"--frames", "1"});
    args.insert(args.end(), c.args.begin(), c.args.end());
    std::string shown;
    for (const std::string& a : c.args) shown += a + " ";
    SCOPED_TRACE(shown);
    test::CommandResult r = runEsframe(args);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_EQ(test::lineCount(withoutAutoBackendLine(r.err)), 1) << r.err;
    EXPECT_NE(r.err.find(c.names), std::string::npos) << r.err;
    EXPECT_LT(r.err.size(), 300u) << r.err;
    EXPECT_EQ(r.out, "") << "nothing half-written on stdout";
  }
}

// A config file's unknown name was CLI11's "INI was not able to parse run.frmes".
TEST(RunProcess, AConfigFileTypoNamesTheFileAndSection) {
  test::ScratchDir dir;
  const std::string config = (dir.path / "run.conf").string();
  std::ofstream(config) << "[run]\nfrmes = 3\n";
  test::CommandResult r = runEsframe({"--config", config, "run", "--backend", "cpu"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "esframe: error: --config " + config +
                       ": unknown option 'frmes' in [run] (esframe run --help lists the options, "
                       "without their dashes in the file)\n");
}

// A compressed video is not raw frames: the line says how to decode it into esframe.
TEST(RunProcess, AnMp4SourceNamesFfmpegsPipe) {
  test::ScratchDir dir;
  const std::string mp4 = (dir.path / "clip.mp4").string();
  std::ofstream(mp4) << std::string(64, 'x');
  test::CommandResult r = runEsframe({"run", "--backend", "cpu", "--source", mp4});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(test::lineCount(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("raw frames need --size and --format"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("; a compressed video goes through ffmpeg: ffmpeg -i " + mp4 +
                       " -f yuv4mpegpipe - | esframe run --source -\n"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace esf
