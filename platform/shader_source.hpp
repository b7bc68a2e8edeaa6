#pragma once
// A shader's text as the driver gets it, and the places in it the driver's messages name.
//
// A shader shares code with `#include "common/NAME.glsl"` on a line of its own, NAME a file of
// glsl_es/common/ (embedded as "common/NAME.glsl"). The include is resolved when the program is
// built: the line is replaced by the file's text, each file once per program (a second include
// of it is dropped, so shared files need no guards and cannot loop). An include inside
// #if ... #endif is refused: which branch holds a file's one copy would depend on the #defines.
// The driver's line numbers still say where: `#line` directives number line L of the program's
// file N (0 the shader, then its includes in order) N * kLinesPerFile + L, and
// ResolvedShader::place turns that back into the file and line. (The source-string number of
// `#line L N` would say the file, but Mesa reports 0 for most errors whatever it is.)
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "esframe/base/result.hpp"
#include "glsl_es/embedded_file.hpp"

namespace esf {

inline constexpr size_t kLinesPerFile = 10000;  // a file of more lines is refused

struct ShaderLine {
  std::string file;  // "histogram.comp", "common/rgba8.glsl"
  int line = 0;
};

struct ResolvedShader {
  std::string text;
  std::vector<std::string> files;  // the shader, then the files it includes, in order
  // The file and line of line `line` of `text` as the driver numbers it.
  ShaderLine place(int line) const;
};

// `name`'s text with its includes in place. Errors name the shader, the including file and line,
// and the file that is missing.
Result<ResolvedShader> resolveShaderIncludes(std::span<const EmbeddedFile> library,
                                             std::string_view name);

// Where a driver's log line points: Mesa writes "0:12(5): error: ...", NVIDIA
// "0(12) : error C1008: ..." (source-string number, line).
struct LogLocation {
  int source = 0;
  int line = 0;
  std::string message;  // what follows the location
};
std::optional<LogLocation> parseLogLocation(std::string_view log_line);

}  // namespace esf
