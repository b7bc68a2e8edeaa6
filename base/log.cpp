#include "esframe/base/log.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>

namespace esf {
namespace {
std::atomic<LogLevel> g_level{LogLevel::kWarning};
std::atomic<LogHandler> g_handler{nullptr};
std::atomic<void*> g_handler_data{nullptr};
// When the library was loaded: about when the process started, the origin of -vv's timeline.
const std::chrono::steady_clock::time_point g_loaded = std::chrono::steady_clock::now();
}  // namespace

void setLogHandler(LogHandler handler, void* user_data) {
  g_handler_data = user_data;
  g_handler = handler;
}

void setLogLevel(LogLevel level) {
  g_level = level;
}
LogLevel logLevel() {
  return g_level;
}

void logLine(LogLevel level, std::string_view message) {
  if (level > g_level.load()) return;
  if (LogHandler handler = g_handler.load()) {
    handler(level, message, g_handler_data.load());
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
