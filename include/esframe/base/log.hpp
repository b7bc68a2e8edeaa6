#pragma once
// Logs go to stderr, data to stdout. One line per message, prefixed "esframe: ". At the debug
// level each line also carries the milliseconds since the library was loaded ("esframe: debug:
// [12.5 ms] ..."), so -vv shows where start-up time goes.
#include <string_view>

#include "esframe/base/export.hpp"

namespace esf {

enum class LogLevel { kError = 0, kWarning = 1, kInfo = 2, kDebug = 3 };

ESF_API void setLogLevel(LogLevel level);
ESF_API LogLevel logLevel();
ESF_API void logLine(LogLevel level, std::string_view message);

// Where log lines go: by default one write(2) to stderr per line ("esframe: warning: ..."). An
// application (a GStreamer element, a service) can take them instead; the handler gets lines
// at or below the log level, without prefix or newline, from whichever thread logged. Null
// restores stderr. Set it before creating pipelines.
using LogHandler = void (*)(LogLevel level, std::string_view message, void* user_data);
ESF_API void setLogHandler(LogHandler handler, void* user_data = nullptr);

inline void logError(std::string_view m) {
  logLine(LogLevel::kError, m);
}
inline void logWarning(std::string_view m) {
  logLine(LogLevel::kWarning, m);
}
inline void logInfo(std::string_view m) {
  logLine(LogLevel::kInfo, m);
}
inline void logDebug(std::string_view m) {
  logLine(LogLevel::kDebug, m);
}

}  // namespace esf
