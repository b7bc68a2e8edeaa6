#include "platform/shader_library.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <regex>

#include "esframe/base/log.hpp"
#include "platform/gl_spec_limits.hpp"

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

Result<GlShader> compile(GLenum stage, std::string_view name, const std::string& preamble,
                         std::string_view text) {
  const GLchar* parts[] = {preamble.c_str(), text.data()};
  const GLint lengths[] = {GLint(preamble.size()), GLint(text.size())};
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

// `retrievable`: the program's binary will be read for the cache (a hint some drivers need).
Result<GlProgram> link(const std::vector<GlShader>& shaders, const std::string& what,
                       bool retrievable) {
  GlProgram program(glCreateProgram());
  if (retrievable) glProgramParameteri(program.get(), GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
  for (const GlShader& s : shaders) glAttachShader(program.get(), s.get());
  glLinkProgram(program.get());
  GLint ok = GL_FALSE;
  glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
  if (!ok) {
    std::string log = programLog(program.get());
    logDebug("link log for " + what + ":\n" + log);
    return fail(ErrorCode::kGpu, "glsl_es/", what, ": link error: ", firstError(log).second);
  }
  return program;
}

std::string msSince(std::chrono::steady_clock::time_point start) {
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  char text[32];
  std::snprintf(text, sizeof text, "%.1f ms", ms);
  return text;
}

// Once per process: where programs are cached, or why they are not.
void logCacheOnce(const ProgramCache* cache, bool usable) {
  static std::atomic<bool> logged{false};
  if (!cache || logged.exchange(true)) return;
  if (usable)
    logDebug("program cache: " + cache->directory());
  else if (cache->directory().empty())
    logDebug("program cache: off (ESFRAME_PROGRAM_CACHE=0)");
  else
    logDebug("program cache: off (the driver offers no program binary format)");
}

}  // namespace

std::string ShaderDefines::preamble() const {
  std::string p = "#version 310 es\nprecision highp float;\nprecision highp int;\n";
  for (const auto& [name, value] : defines_) p += "#define " + name + " " + value + "\n";
  p += "#line 1\n";
  return p;
}

const ShaderLibrary& ShaderLibrary::builtin() {
  static const ShaderLibrary library(builtinShaders(), &ProgramCache::shared());
  return library;
}

Result<std::string_view> ShaderLibrary::source(std::string_view name) const {
  for (const EmbeddedFile& f : files_)
    if (f.name == name) return f.text;
  return fail(ErrorCode::kNotFound, "no embedded shader named '", name, "'");
}

Result<GlProgram> ShaderLibrary::compute(std::string_view name, const ShaderDefines& d) const {
  Result<GlProgram> program = build({{GL_COMPUTE_SHADER, name}}, d);
  if (!program) return program;
  if (Status s = checkProgramWithinGles31Minimums(program->get(), "glsl_es/" + std::string(name));
      !s)
    return s.error();
  return program;
}

Result<GlProgram> ShaderLibrary::graphics(std::string_view vertex, std::string_view fragment,
                                          const ShaderDefines& d) const {
  return build({{GL_VERTEX_SHADER, vertex}, {GL_FRAGMENT_SHADER, fragment}}, d);
}

Result<GlProgram> ShaderLibrary::build(std::initializer_list<Stage> stages,
                                       const ShaderDefines& d) const {
  const auto start = std::chrono::steady_clock::now();
  const std::string preamble = d.preamble();
  std::string what;  // "a.comp", "graph.vert+graph.frag"
  std::string key;   // every stage's full text: the program cache's key
  std::vector<std::string_view> texts;
  for (const Stage& stage : stages) {
    Result<std::string_view> text = source(stage.name);
    if (!text) return text.error();
    texts.push_back(text.value());
    what += (what.empty() ? "" : "+") + std::string(stage.name);
    key.append(std::to_string(stage.type)).append(1, '\n').append(preamble);
    key.append(text.value()).append(1, '\0');
  }
  const bool cached = cache_ && cache_->usable();
  logCacheOnce(cache_, cached);
  std::string why;
  if (cached) {
    if (GlProgram program = cache_->load(key, &why)) {
      logDebug("program " + what + ": loaded from the program cache in " + msSince(start));
      return program;
    }
    logDebug("program " + what + ": not in the program cache (" + why + ")");
  }
  std::vector<GlShader> shaders;
  size_t i = 0;
  for (const Stage& stage : stages) {
    Result<GlShader> shader = compile(stage.type, stage.name, preamble, texts[i++]);
    if (!shader) return shader.error();
    shaders.push_back(std::move(shader.value()));
  }
  Result<GlProgram> program = link(shaders, what, cached);
  if (!program) return program;
  std::string outcome;
  if (cached)
    outcome = cache_->store(key, program->get(), &why) ? ", stored in the program cache"
                                                       : ", not stored (" + why + ")";
  logDebug("program " + what + ": compiled and linked in " + msSince(start) + outcome);
  return program;
}

}  // namespace esf
