#include "esframe/base/log.hpp"

#include <unistd.h>

#include <atomic>
#include <string>

namespace esf {
namespace {
std::atomic<LogLevel> g_level{LogLevel::kWarning};
std::atomic<LogHandler> g_handler{nullptr};
std::atomic<void*> g_handler_data{nullptr};
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
  line += message;
  line += '\n';
  // One write() per line so lines from several threads never interleave.
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace esf
