#include "esframe/base/log.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

namespace esf {
namespace {
std::atomic<LogLevel> g_level{LogLevel::kWarning};
// The handler and its user data change together: a logging thread must never see one's new
// value with the other's old one, so both are read and written under one mutex. Held only to
// copy them: the handler runs unlocked (it may log, or take its own locks).
std::mutex g_handler_mutex;
LogHandler g_handler = nullptr;
void* g_handler_data = nullptr;
// When the library was loaded: about when the process started, the origin of -vv's timeline.
const std::chrono::steady_clock::time_point g_loaded = std::chrono::steady_clock::now();
}  // namespace

void setLogHandler(LogHandler handler, void* user_data) {
  std::lock_guard lock(g_handler_mutex);
  g_handler = handler;
  g_handler_data = user_data;
}

void setLogLevel(LogLevel level) {
  g_level = level;
}
LogLevel logLevel() {
  return g_level;
}

void logLine(LogLevel level, std::string_view message) {
  if (level > g_level.load()) return;
  LogHandler handler;
  void* user_data;
  {
    std::lock_guard lock(g_handler_mutex);
    handler = g_handler;
    user_data = g_handler_data;
  }
  if (handler) {
    handler(level, message, user_data);
    return;
  }
  static constexpr const char* kPrefix[] = {"error: ", "warning: ", "", "debug: "};
  std::string line = "esframe: ";
  line += kPrefix[static_cast<int>(level)];
  if (g_level.load() == LogLevel::kDebug) {  // the start-up timeline: where the time goes
    char stamp[32];
    std::snprintf(
        stamp, sizeof stamp, "[%.1f ms] ",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_loaded)
            .count());
    line += stamp;
  }
  line += message;
  line += '\n';
  // One write() per line so lines from several threads never interleave.
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace esf
