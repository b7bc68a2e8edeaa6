#include "esframe/base/log.hpp"

#include <unistd.h>

#include <atomic>
#include <string>

namespace esf {
namespace {
std::atomic<LogLevel> g_level{LogLevel::kWarning};
}

void setLogLevel(LogLevel level) {
  g_level = level;
}
LogLevel logLevel() {
  return g_level;
}

void logLine(LogLevel level, std::string_view message) {
  if (level > g_level.load()) return;
  static constexpr const char* kPrefix[] = {"error: ", "warning: ", "", "debug: "};
  std::string line = "esframe: ";
  line += kPrefix[static_cast<int>(level)];
  line += message;
  line += '\n';
  // One write() per line so lines from several threads never interleave.
  [[maybe_unused]] ssize_t n = ::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace esf
