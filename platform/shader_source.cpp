#include "platform/shader_source.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace esf {
namespace {

std::string_view trimLeft(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// The directive of a preprocessor line ("include" for "  #  include ..."), "" for other lines;
// `rest` is what follows it.
std::string_view directiveOf(std::string_view line, std::string_view* rest) {
  line = trimLeft(line);
  if (line.empty() || line.front() != '#') return {};
  line = trimLeft(line.substr(1));
  size_t end = 0;
  while (end < line.size() && std::isalpha(static_cast<unsigned char>(line[end]))) ++end;
  *rest = line.substr(end);
  return line.substr(0, end);
}

// The quoted name of `#include "NAME"` (`rest` is what follows "include"); nothing but blanks
// and a // comment may follow it. Empty when malformed.
std::string_view includedName(std::string_view rest) {
  rest = trimLeft(rest);
  if (rest.size() < 2 || rest.front() != '"') return {};
  const size_t close = rest.find('"', 1);
  if (close == std::string_view::npos) return {};
  std::string_view after = trimLeft(rest.substr(close + 1));
  if (!after.empty() && !after.starts_with("//")) return {};
  return rest.substr(1, close - 1);
}

const EmbeddedFile* findFile(std::span<const EmbeddedFile> library, std::string_view name) {
  for (const EmbeddedFile& f : library)
    if (f.name == name) return &f;
  return nullptr;
}

// `#line` for line `line` of file `number`.
std::string lineDirective(size_t number, size_t line) {
  return "#line " + std::to_string(number * kLinesPerFile + line) + "\n";
}

// Appends `text` (file `number` of `out`) with its includes in place.
Status expand(std::span<const EmbeddedFile> library, std::string_view text, size_t number,
              ResolvedShader& out) {
  const std::string file = out.files[number];  // a copy: `files` grows below
  int conditional_depth = 0;
  size_t line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    end = end == std::string_view::npos ? text.size() : end + 1;
    const std::string_view line = text.substr(start, end - start);
    start = end;
    if (++line_number == kLinesPerFile)
      return fail(ErrorCode::kInvalidArgument, "glsl_es/", out.files[0], ": glsl_es/", file,
                  " has ", std::to_string(kLinesPerFile), " lines or more: too many to tell");
    std::string_view content = line;  // without its line end
    while (!content.empty() && (content.back() == '\n' || content.back() == '\r'))
      content.remove_suffix(1);
    std::string_view rest;
    const std::string_view directive = directiveOf(content, &rest);
    if (directive == "if" || directive == "ifdef" || directive == "ifndef") ++conditional_depth;
    if (directive == "endif") --conditional_depth;
    if (directive != "include") {
      out.text.append(line);
      continue;
    }
    // "glsl_es/FILE:LINE", after "glsl_es/SHADER: " when FILE is one the shader includes.
    std::string where = "glsl_es/" + file + ":" + std::to_string(line_number);
    if (number > 0) where = "glsl_es/" + out.files[0] + ": " + where;
    const std::string_view name = includedName(rest);
    if (name.empty())
      return fail(ErrorCode::kInvalidArgument, where,
                  ": an #include names its file in quotes: #include \"common/NAME.glsl\"");
    if (conditional_depth > 0)
      return fail(ErrorCode::kInvalidArgument, where, ": #include \"", name,
                  "\" inside #if: includes go outside conditionals");
    if (std::find(out.files.begin(), out.files.end(), name) != out.files.end()) {
      out.text.append("\n");  // included before: this line stays, empty
      continue;
    }
    const EmbeddedFile* included = findFile(library, name);
    if (!included)
      return fail(ErrorCode::kNotFound, where, ": #include \"", name,
                  "\": the shader library has no file glsl_es/", name);
    const size_t included_number = out.files.size();
    out.files.emplace_back(name);
    out.text.append(lineDirective(included_number, 1));
    if (Status s = expand(library, included->text, included_number, out); !s) return s;
    if (!out.text.ends_with('\n')) out.text.append("\n");
    out.text.append(lineDirective(number, line_number + 1));
  }
  return {};
}

// The digits at the front of `s` as an int, which it consumes; nullopt if none or out of range.
std::optional<int> takeNumber(std::string_view& s) {
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  int value = 0;
  if (digits == 0 || std::from_chars(s.data(), s.data() + digits, value).ec != std::errc())
    return std::nullopt;
  s.remove_prefix(digits);
  return value;
}

bool take(std::string_view& s, char c) {
  if (s.empty() || s.front() != c) return false;
  s.remove_prefix(1);
  return true;
}

}  // namespace

Result<ResolvedShader> resolveShaderIncludes(std::span<const EmbeddedFile> library,
                                             std::string_view name) {
  const EmbeddedFile* file = findFile(library, name);
  if (!file) return fail(ErrorCode::kNotFound, "no embedded shader named '", name, "'");
  ResolvedShader out;
  out.files.emplace_back(name);
  if (Status s = expand(library, file->text, 0, out); !s) return s.error();
  return out;
}

ShaderLine ResolvedShader::place(int line) const {
  const size_t number = line > 0 ? size_t(line) / kLinesPerFile : 0;
  if (number == 0 || number >= files.size()) return {files.empty() ? "" : files[0], line};
  return {files[number], int(size_t(line) % kLinesPerFile)};
}

std::optional<LogLocation> parseLogLocation(std::string_view s) {
  if (s.ends_with('\r')) s.remove_suffix(1);
  s = trimLeft(s);
  LogLocation at;
  const std::optional<int> source = takeNumber(s);
  if (!source) return std::nullopt;
  at.source = *source;
  std::optional<int> line;
  if (take(s, ':')) {  // Mesa: "0:12(5): "
    line = takeNumber(s);
    if (!line || !take(s, '(') || !takeNumber(s) || !take(s, ')') || !take(s, ':'))
      return std::nullopt;
  } else if (take(s, '(')) {  // NVIDIA: "0(12) : "
    line = takeNumber(s);
    if (!line || !take(s, ')')) return std::nullopt;
    s = trimLeft(s);
    if (!take(s, ':')) return std::nullopt;
  } else {
    return std::nullopt;
  }
  at.line = *line;
  at.message = std::string(trimLeft(s));
  return at;
}

}  // namespace esf
