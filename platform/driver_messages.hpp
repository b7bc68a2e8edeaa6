#pragma once
// What a GL driver says while it builds a program. The boards' compilers report their statistics,
// their fallbacks and some failures only in words: Mesa's v3d compiles a compute program at its
// first dispatch, and when every strategy fails it prints "Failed to compile ... with any
// strategy" on stderr and skips the dispatch with no GL error; v3d, panfrost and freedreno send
// their per-shader statistics ("CS shader: 123 inst, 4 threads, ... 0:0 spills:fills") through
// GL_KHR_debug. DriverMessageWindow collects both for a short span of GL calls.
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "esframe/gpu.hpp"  // ShaderStatistics

namespace esf {

// What the driver said about one program, judged.
struct DriverVerdict {
  bool refused = false;   // it could not compile the program
  bool fallback = false;  // v3d reached its last-resort "fallback scheduler" strategy
  std::string refusal;    // the driver's line that says so
  std::string strategy;   // v3d: the last strategy it fell back to ("" for the first)
  std::vector<ShaderStatistics> shaders;  // the last statistics line of each stage
  std::vector<std::string> warnings;      // compiler warnings (GLSL info log, "warning:")
};

// Judges the lines a driver wrote while building one program.
DriverVerdict judgeDriverMessages(const std::vector<std::string>& lines);
// Parses one statistics line ("CS shader: 12 inst, 4 threads, 0:0 spills:fills, ..."), or false.
bool parseShaderStatistics(std::string_view line, ShaderStatistics* out);

// Collects, from construction to finish(), the current context's KHR_debug messages (when the
// driver has GL_KHR_debug) and what anything in the process writes on stderr (fd 2 is a memory
// file meanwhile; finish() writes that text on to the real stderr unless `quiet`).
class DriverMessageWindow {
 public:
  explicit DriverMessageWindow(bool quiet);
  ~DriverMessageWindow();
  DriverMessageWindow(const DriverMessageWindow&) = delete;
  DriverMessageWindow& operator=(const DriverMessageWindow&) = delete;
  // Ends the window: the messages, KHR_debug's first, then stderr's lines.
  std::vector<std::string> finish();

 private:
  bool quiet_;
  bool open_ = true;
  int saved_stderr_ = -1;
  int capture_ = -1;
  void* set_callback_ = nullptr;  // glDebugMessageCallback(KHR), null without GL_KHR_debug
  bool debug_was_enabled_ = false;
  void* old_callback_ = nullptr;
  const void* old_user_ = nullptr;
  std::mutex debug_mutex_;  // the driver may call back from its own thread
  std::vector<std::string> debug_lines_;

  friend void collectDebugMessage(DriverMessageWindow* window, std::string line);
};

}  // namespace esf
