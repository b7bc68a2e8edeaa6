#include "core/tuning/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace esf {

Progress::Progress(std::string title, int total) : title_(std::move(title)), total_(total) {}

Progress::~Progress() {
  done();
}

bool Progress::enabled() {
  return isatty(STDERR_FILENO) == 1;
}

void Progress::step(const std::string& what) {
  ++current_;
  if (!enabled()) return;
  std::string line =
      "[" + std::to_string(current_) + "/" + std::to_string(total_) + "] " + title_ + ": " + what;
  if (line.size() > 100) line.resize(100);
  // \r and clear-to-end-of-line redraw the same terminal line.
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  active_ = true;
}

void Progress::done() {
  if (!active_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  active_ = false;
}

}  // namespace esf
