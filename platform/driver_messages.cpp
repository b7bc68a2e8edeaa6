#include "platform/driver_messages.hpp"

#include <EGL/egl.h>
#include <GLES3/gl31.h>
// gl2ext.h needs gl31.h's platform macros first.
#include <GLES2/gl2ext.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace esf {

void collectDebugMessage(DriverMessageWindow* window, std::string line) {
  std::lock_guard lock(window->debug_mutex_);
  window->debug_lines_.push_back(std::move(line));
}

namespace {

void GL_APIENTRY onDebugMessage(GLenum, GLenum type, GLuint, GLenum, GLsizei length,
                                const GLchar* message, const void* user) {
  std::string text(message, length > 0 ? size_t(length) : std::strlen(message));
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (type == GL_DEBUG_TYPE_ERROR_KHR) text = "error: " + text;
  collectDebugMessage(static_cast<DriverMessageWindow*>(const_cast<void*>(user)), std::move(text));
}

struct DebugProcs {
  PFNGLDEBUGMESSAGECALLBACKKHRPROC callback = nullptr;
  PFNGLGETPOINTERVKHRPROC get_pointer = nullptr;
  bool usable = false;
};

// GL_KHR_debug of the current context: core in GLES 3.2, an extension before.
DebugProcs debugProcs() {
  DebugProcs p;
  const char* extensions = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  GLint major = 0, minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  const bool listed = extensions && std::strstr(extensions, "GL_KHR_debug");
  if (!listed && (major < 3 || (major == 3 && minor < 2))) return p;
  p.callback = reinterpret_cast<PFNGLDEBUGMESSAGECALLBACKKHRPROC>(
      eglGetProcAddress(listed ? "glDebugMessageCallbackKHR" : "glDebugMessageCallback"));
  p.get_pointer = reinterpret_cast<PFNGLGETPOINTERVKHRPROC>(
      eglGetProcAddress(listed ? "glGetPointervKHR" : "glGetPointerv"));
  p.usable = p.callback && p.get_pointer;
  return p;
}

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace

DriverMessageWindow::DriverMessageWindow(bool quiet) : quiet_(quiet) {
  std::fflush(stderr);
  capture_ = memfd_create("esframe-driver-stderr", MFD_CLOEXEC);
  saved_stderr_ = capture_ >= 0 ? dup(2) : -1;
  if (saved_stderr_ >= 0 && dup2(capture_, 2) < 0) {
    close(saved_stderr_);
    saved_stderr_ = -1;
  }
  const DebugProcs procs = debugProcs();
  if (procs.usable) {
    set_callback_ = reinterpret_cast<void*>(procs.callback);
    debug_was_enabled_ = glIsEnabled(GL_DEBUG_OUTPUT_KHR);
    procs.get_pointer(GL_DEBUG_CALLBACK_FUNCTION_KHR, &old_callback_);
    void* user = nullptr;
    procs.get_pointer(GL_DEBUG_CALLBACK_USER_PARAM_KHR, &user);
    old_user_ = user;
    procs.callback(onDebugMessage, this);
    // Asynchronous: a threaded Gallium context drops synchronous callbacks.
    glEnable(GL_DEBUG_OUTPUT_KHR);
  }
}

DriverMessageWindow::~DriverMessageWindow() {
  finish();
}

std::vector<std::string> DriverMessageWindow::finish() {
  if (!open_) return {};
  open_ = false;
  std::vector<std::string> lines;
  if (set_callback_) {
    glFinish();  // messages of work still queued in a driver thread
    reinterpret_cast<PFNGLDEBUGMESSAGECALLBACKKHRPROC>(set_callback_)(
        reinterpret_cast<GLDEBUGPROCKHR>(old_callback_), old_user_);
    if (!debug_was_enabled_) glDisable(GL_DEBUG_OUTPUT_KHR);
    std::lock_guard lock(debug_mutex_);
    lines = std::move(debug_lines_);
  }
  std::fflush(stderr);
  if (saved_stderr_ >= 0) {
    dup2(saved_stderr_, 2);
    close(saved_stderr_);
    std::string text;
    char chunk[4096];
    for (off_t at = 0;;) {
      const ssize_t n = pread(capture_, chunk, sizeof chunk, at);
      if (n <= 0) break;
      text.append(chunk, size_t(n));
      at += n;
    }
    if (!quiet_)
      for (size_t done = 0; done < text.size();) {
        const ssize_t n = write(2, text.data() + done, text.size() - done);
        if (n <= 0) break;
        done += size_t(n);
      }
    for (std::string& line : splitLines(text)) lines.push_back(std::move(line));
  }
  if (capture_ >= 0) close(capture_);
  capture_ = saved_stderr_ = -1;
  return lines;
}

bool parseShaderStatistics(std::string_view line, ShaderStatistics* out) {
  // "SHADER-DB: CS shader: ..." (panfrost on stderr), "SHADER-DB-name - CS shader: ..." (v3d).
  const size_t at = line.find(" shader: ");
  if (at == std::string_view::npos) return false;
  size_t name_start = line.find_last_of(" :", at == 0 ? 0 : at - 1);
  name_start = name_start == std::string_view::npos ? 0 : name_start + 1;
  ShaderStatistics s;
  s.stage = std::string(line.substr(name_start, at - name_start));
  s.line = std::string(line);
  std::string_view rest = line.substr(at + 9);
  bool any = false;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view field = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    while (!field.empty() && field.front() == ' ') field.remove_prefix(1);
    const size_t space = field.find(' ');
    if (space == std::string_view::npos) continue;
    const std::string number(field.substr(0, space));
    std::string_view name = field.substr(space + 1);
    while (!name.empty() && (name.back() == '\n' || name.back() == ' ')) name.remove_suffix(1);
    if (name == "spills:fills") {
      const size_t colon = number.find(':');
      if (colon == std::string::npos) continue;
      s.spills = std::strtoll(number.c_str(), nullptr, 10);
      s.fills = std::strtoll(number.c_str() + colon + 1, nullptr, 10);
      any = true;
      continue;
    }
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (end == number.c_str()) continue;
    const auto v = int64_t(value);
    if (name == "inst")
      s.instructions = v, any = true;
    else if (name == "threads" || name == "waves")
      s.threads = v;
    else if (name == "registers" || name == "max-temps" || name == "full")
      s.registers = v;
    else if (name == "loops")
      s.loops = v;
  }
  if (!any) return false;
  *out = std::move(s);
  return true;
}

DriverVerdict judgeDriverMessages(const std::vector<std::string>& lines) {
  DriverVerdict v;
  for (const std::string& line : lines) {
    ShaderStatistics stats;
    if (parseShaderStatistics(line, &stats)) {
      bool replaced = false;
      for (ShaderStatistics& s : v.shaders)
        if (s.stage == stats.stage) s = stats, replaced = true;
      if (!replaced) v.shaders.push_back(std::move(stats));
      continue;
    }
    // v3d: "Falling back to strategy 'fallback scheduler' for CS prog 3/0".
    if (const size_t at = line.find("Falling back to strategy '"); at != std::string::npos) {
      const size_t start = at + 26;
      const size_t end = line.find('\'', start);
      v.strategy = line.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (v.strategy == "fallback scheduler") v.fallback = true;
      continue;
    }
    // v3d's "Failed to compile CS prog 3/0 with any strategy." and "Compute shader failed to
    // compile.  Expect corruption."; any driver's KHR_debug error.
    const bool refused = contains(line, "Failed to compile") ||
                         contains(line, "failed to compile") || line.rfind("error: ", 0) == 0;
    if (refused && !v.refused) {
      v.refused = true;
      v.refusal = line;
      continue;
    }
    if (contains(line, "warning")) v.warnings.push_back(line);
  }
  return v;
}

}  // namespace esf
