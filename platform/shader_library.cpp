#include "platform/shader_library.hpp"

#include <algorithm>
#include <cstring>
#include <regex>

#include "esframe/base/log.hpp"

namespace esf {
namespace {

std::string shaderLog(GLuint shader) {
  GLint len = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &len);
  std::string log(size_t(std::max(len, 1)), '\0');
  glGetShaderInfoLog(shader, len, nullptr, log.data());
  log.resize(std::strlen(log.c_str()));
  return log;
}

std::string programLog(GLuint program) {
  GLint len = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &len);
  std::string log(size_t(std::max(len, 1)), '\0');
  glGetProgramInfoLog(program, len, nullptr, log.data());
  log.resize(std::strlen(log.c_str()));
  return log;
}

// Mesa writes "0:12(5): error: ...", NVIDIA "0(12) : error C1008: ...". Returns the first error
// line's number and its text, so the message can name file:line.
std::pair<int, std::string> firstError(const std::string& log) {
  static const std::regex mesa(R"(^\s*\d+:(\d+)\(\d+\):\s*(.*)$)");
  static const std::regex nvidia(R"(^\s*\d+\((\d+)\)\s*:\s*(.*)$)");
  std::string fallback;
  size_t start = 0;
  while (start < log.size()) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    std::string line = log.substr(start, end - start);
    start = end + 1;
    std::smatch m;
    bool is_error = line.find("error") != std::string::npos;
    if ((std::regex_match(line, m, mesa) || std::regex_match(line, m, nvidia)) && is_error)
      return {std::stoi(m[1]), m[2]};
    if (fallback.empty() && !line.empty()) fallback = line;
  }
  return {0, fallback};
}

}  // namespace

std::string ShaderDefines::preamble() const {
  std::string p = "#version 310 es\nprecision highp float;\nprecision highp int;\n";
  for (const auto& [name, value] : defines_) p += "#define " + name + " " + value + "\n";
  p += "#line 1\n";
  return p;
}

const ShaderLibrary& ShaderLibrary::builtin() {
  static const ShaderLibrary library(builtinShaders());
  return library;
}

Result<std::string_view> ShaderLibrary::source(std::string_view name) const {
  for (const EmbeddedFile& f : files_)
    if (f.name == name) return f.text;
  return fail(ErrorCode::kNotFound, "no embedded shader named '", name, "'");
}

Result<GlShader> ShaderLibrary::compile(GLenum stage, std::string_view name,
                                        const ShaderDefines& d) const {
  Result<std::string_view> text = source(name);
  if (!text) return text.error();
  std::string preamble = d.preamble();
  const GLchar* parts[] = {preamble.c_str(), text->data()};
  const GLint lengths[] = {GLint(preamble.size()), GLint(text->size())};
  GlShader shader(glCreateShader(stage));
  if (!shader) return fail(ErrorCode::kGpu, "glCreateShader failed for '", name, "'");
  glShaderSource(shader.get(), 2, parts, lengths);
  glCompileShader(shader.get());
  GLint ok = GL_FALSE;
  glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok);
  if (!ok) {
    std::string log = shaderLog(shader.get());
    auto [line, message] = firstError(log);
    logDebug("driver log for " + std::string(name) + ":\n" + log);
    return fail(ErrorCode::kGpu, "glsl_es/", name, ":", std::to_string(line),
                ": compile error: ", message);
  }
  return shader;
}

static Result<GlProgram> link(std::initializer_list<const GlShader*> shaders,
                              std::string_view what) {
  GlProgram program(glCreateProgram());
  for (const GlShader* s : shaders) glAttachShader(program.get(), s->get());
  glLinkProgram(program.get());
  GLint ok = GL_FALSE;
  glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
  if (!ok) {
    std::string log = programLog(program.get());
    logDebug("link log for " + std::string(what) + ":\n" + log);
    return fail(ErrorCode::kGpu, "glsl_es/", what, ": link error: ", firstError(log).second);
  }
  return program;
}

Result<GlProgram> ShaderLibrary::compute(std::string_view name, const ShaderDefines& d) const {
  Result<GlShader> cs = compile(GL_COMPUTE_SHADER, name, d);
  if (!cs) return cs.error();
  return link({&cs.value()}, name);
}

Result<GlProgram> ShaderLibrary::graphics(std::string_view vertex, std::string_view fragment,
                                          const ShaderDefines& d) const {
  Result<GlShader> vs = compile(GL_VERTEX_SHADER, vertex, d);
  if (!vs) return vs.error();
  Result<GlShader> fs = compile(GL_FRAGMENT_SHADER, fragment, d);
  if (!fs) return fs.error();
  return link({&vs.value(), &fs.value()}, std::string(vertex) + "+" + std::string(fragment));
}

}  // namespace esf
