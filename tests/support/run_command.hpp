#pragma once
// Runs the esframe binary (path from $ESFRAME_BIN) and captures its exit code and output.
#include <string>
#include <vector>

namespace esf::test {

struct CommandResult {
  int exit_code = -1;  // 128 + signal number if killed by a signal
  std::string out;
  std::string err;
  long peak_rss_kb = 0;  // the child's peak resident set (getrusage's ru_maxrss)
};

// Runs `esframe args...`, with `stdin_text` on standard input, for at most timeout_s seconds.
CommandResult runEsframe(const std::vector<std::string>& args, const std::string& stdin_text = "",
                         int timeout_s = 120);
// Runs a shell command line through /bin/sh -c (for pipelines such as `esframe run | head -1`).
CommandResult runShell(const std::string& command_line, int timeout_s = 120);
std::string esframeBinary();

// Number of lines in `text` (a trailing partial line counts).
int lineCount(const std::string& text);

// JSON lines without their timings (timing_ms, timing_clock differ run to run and backend to
// backend): what two runs must print the same.
std::string withoutTimings(const std::string& jsonl);

}  // namespace esf::test
