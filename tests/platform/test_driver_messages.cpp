// What the boards' compilers say, judged (platform/driver_messages.hpp). The lines are the forms
// Mesa 25.0's compilers print: v3d (src/broadcom/compiler/vir.c v3d_shaderdb_dump and its
// strategy loop), Bifrost/Valhall (bifrost_compile.c), Midgard (midgard_compile.c), freedreno
// (ir3_gallium.c dump_shader_info).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "platform/driver_messages.hpp"

namespace esf {
namespace {

struct Expected {
  const char* line;
  const char* stage;
  int64_t instructions, threads, registers, spills, fills;
};

// Each compiler's line, as Mesa 25.0 prints it, and the figures it holds (-1: not printed).
const Expected kLines[] = {
    {"CS shader: 187 inst, 4 threads, 2 loops, 31 uniforms, 22 max-temps, 0:0 spills:fills, 3 "
     "sfu-stalls, 190 inst-and-stalls, 41 nops",
     "CS", 187, 4, 22, 0, 0},
    {"SHADER-DB-GLSL3 - CS shader: 950 inst, 2 threads, 1 loops, 12 uniforms, 64 max-temps, "
     "15:22 spills:fills, 0 sfu-stalls, 950 inst-and-stalls, 100 nops",
     "CS", 950, 2, 64, 15, 22},
    {"MESA_SHADER_COMPUTE shader: 412 inst, 12.500000 cycles, 10.250000 fma, 2.000000 cvt, "
     "1.000000 sfu, 0.000000 v, 3.000000 t, 8.000000 ls, 70 quadwords, 2 threads, 1 loops, "
     "29:241 spills:fills",
     "MESA_SHADER_COMPUTE", 412, 2, -1, 29, 241},
    {"SHADER-DB: MESA_SHADER_COMPUTE shader: 210 inst, 90 bundles, 130 quadwords, 12 registers, "
     "1 threads, 3 loops, 4:9 spills:fills",
     "MESA_SHADER_COMPUTE", 210, 1, 12, 4, 9},
    {"CL shader: 96 inst, 20 nops, 76 non-nops, 10 mov, 2 cov, 48 dwords, 0 last-baryf, 0 "
     "last-helper, 1 half, 6 full, 8 constlen, 20 cat0, 10 cat1, 30 cat2, 5 cat3, 0 cat4, 2 cat5, "
     "9 cat6, 0 cat7, 0 stp, 0 ldp, 4 sstall, 3 (ss), 1 systall, 2 (sy), 16 waves, 1 loops, 0 "
     "preamble inst, 0 early-preamble\n",
     "CL", 96, 16, 6, -1, -1},
};

TEST(DriverMessages, EachCompilersStatistics) {
  for (const Expected& e : kLines) {
    SCOPED_TRACE(e.line);
    ShaderStatistics s;
    ASSERT_TRUE(parseShaderStatistics(e.line, &s));
    EXPECT_EQ(s.stage, e.stage);
    EXPECT_EQ(s.instructions, e.instructions);
    EXPECT_EQ(s.threads, e.threads);
    EXPECT_EQ(s.registers, e.registers);
    EXPECT_EQ(s.spills, e.spills);
    EXPECT_EQ(s.fills, e.fills);
  }
}

TEST(DriverMessages, NotStatistics) {
  ShaderStatistics s;
  EXPECT_FALSE(parseShaderStatistics("Mesa warning: a shader: with no figures", &s));
}

TEST(DriverMessages, V3dFallbackSchedulerIsFlagged) {
  const DriverVerdict v = judgeDriverMessages(
      {"Falling back to strategy 'disable general TMU sched' for CS prog 3/0",
       "Falling back to strategy 'fallback scheduler' for CS prog 3/0",
       "CS shader: 300 inst, 2 threads, 0 loops, 9 uniforms, 60 max-temps, 0:0 spills:fills, 0 "
       "sfu-stalls, 300 inst-and-stalls, 80 nops"});
  EXPECT_FALSE(v.refused);
  EXPECT_TRUE(v.fallback);
  EXPECT_EQ(v.strategy, "fallback scheduler");
  ASSERT_EQ(v.shaders.size(), 1u);
  EXPECT_EQ(v.shaders[0].threads, 2);
}

TEST(DriverMessages, EarlierStrategyIsNotFallback) {
  const DriverVerdict v = judgeDriverMessages(
      {"Falling back to strategy 'disable loop unrolling' for CS prog 1/0",
       "CS shader: 50 inst, 4 threads, 0 loops, 3 uniforms, 20 max-temps, 0:0 spills:fills, 0 "
       "sfu-stalls, 50 inst-and-stalls, 9 nops"});
  EXPECT_FALSE(v.fallback);
  EXPECT_EQ(v.strategy, "disable loop unrolling");
}

TEST(DriverMessages, V3dSilentRefusal) {
  const DriverVerdict v =
      judgeDriverMessages({"Falling back to strategy 'fallback scheduler' for CS prog 2/0",
                           "Failed to compile CS prog 2/0 with any strategy.",
                           "Compute shader failed to compile.  Expect corruption."});
  EXPECT_TRUE(v.refused);
  EXPECT_EQ(v.refusal, "Failed to compile CS prog 2/0 with any strategy.");
  EXPECT_TRUE(v.shaders.empty());
}

TEST(DriverMessages, WarningsAreKept) {
  const DriverVerdict v =
      judgeDriverMessages({"glsl_es/reduce.comp: 0:145(12): warning: `mn' used uninitialized"});
  EXPECT_FALSE(v.refused);
  ASSERT_EQ(v.warnings.size(), 1u);
}

TEST(DriverMessages, WindowCapturesStderrAndPassesItOn) {
  // No GL context is current: the window collects stderr alone.
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const int saved = dup(2);
  ASSERT_GE(saved, 0);
  ASSERT_EQ(dup2(pipe_fds[1], 2), 2);  // what the window passes on lands in the pipe
  std::vector<std::string> lines;
  {
    DriverMessageWindow window(false);
    std::fprintf(stderr, "Failed to compile CS prog 7/0 with any strategy.\n");
    lines = window.finish();
  }
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(pipe_fds[1]);
  char passed_on[256] = {};
  const ssize_t n = read(pipe_fds[0], passed_on, sizeof passed_on - 1);
  close(pipe_fds[0]);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0], "Failed to compile CS prog 7/0 with any strategy.");
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(passed_on), "Failed to compile CS prog 7/0 with any strategy.\n");
}

}  // namespace
}  // namespace esf
