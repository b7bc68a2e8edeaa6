#include "platform/shader_library.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>

#include "esframe/base/log.hpp"
#include "platform/gl_spec_limits.hpp"
#include "platform/shader_source.hpp"

namespace esf {
namespace {

// A shader's or a program's info log: glGetShaderiv and glGetShaderInfoLog, or the program's.
template <void (*GetIv)(GLuint, GLenum, GLint*),
          void (*GetInfoLog)(GLuint, GLsizei, GLsizei*, GLchar*)>
std::string infoLog(GLuint object) {
  GLint len = 0;
  GetIv(object, GL_INFO_LOG_LENGTH, &len);
  std::string log(size_t(std::max(len, 1)), '\0');
  GetInfoLog(object, len, nullptr, log.data());
  log.resize(std::strlen(log.c_str()));
  return log;
}
constexpr auto shaderLog = infoLog<glGetShaderiv, glGetShaderInfoLog>;
constexpr auto programLog = infoLog<glGetProgramiv, glGetProgramInfoLog>;

// The first error line of a driver's log, as its location and text; a log with no located error
// gives its first line as the text, at line 0 of the shader.
LogLocation firstError(const std::string& log) {
  std::string fallback;
  size_t start = 0;
  while (start < log.size()) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    const std::string_view line(log.data() + start, end - start);
    start = end + 1;
    if (line.find("error") != std::string_view::npos)
      if (std::optional<LogLocation> at = parseLogLocation(line)) return *at;
    if (fallback.empty() && !line.empty()) fallback = line;
  }
  return {0, 0, fallback};
}

// "glsl_es/histogram.comp:12", or for a line of an included file
// "glsl_es/common/rgba8.glsl:12 (included by histogram.comp)".
std::string placeOf(const ResolvedShader& shader, int line) {
  const ShaderLine at = shader.place(line);
  std::string place = "glsl_es/" + at.file + ":" + std::to_string(at.line);
  if (at.file != shader.files[0]) place += " (included by " + shader.files[0] + ")";
  return place;
}

Result<GlShader> compile(GLenum stage, const std::string& preamble, const ResolvedShader& shader,
                         std::vector<std::string>* warnings) {
  const std::string& name = shader.files[0];
  const GLchar* parts[] = {preamble.c_str(), shader.text.c_str()};
  const GLint lengths[] = {GLint(preamble.size()), GLint(shader.text.size())};
  GlShader compiled(glCreateShader(stage));
  if (!compiled) return fail(ErrorCode::kGpu, "glCreateShader failed for '", name, "'");
  glShaderSource(compiled.get(), 2, parts, lengths);
  glCompileShader(compiled.get());
  GLint ok = GL_FALSE;
  glGetShaderiv(compiled.get(), GL_COMPILE_STATUS, &ok);
  if (!ok) {
    std::string log = shaderLog(compiled.get());
    const LogLocation error = firstError(log);
    logDebug("driver log for " + name + ":\n" + log);
    return fail(ErrorCode::kGpu, placeOf(shader, error.line), kCompileError, error.message);
  }
  const std::string log = shaderLog(compiled.get());
  size_t start = 0;
  while (start < log.size()) {
    size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    std::string line = log.substr(start, end - start);
    if (line.find("warning") != std::string::npos) {
      if (std::optional<LogLocation> at = parseLogLocation(line))
        warnings->push_back(placeOf(shader, at->line) + ": " + at->message);
      else
        warnings->push_back("glsl_es/" + name + ": " + line);
    }
    start = end + 1;
  }
  return compiled;
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
    return fail(ErrorCode::kGpu, "glsl_es/", what, kLinkError, firstError(log).message);
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

// Mesa's v3d compiles a compute program at its first dispatch, with no error when it cannot; an
// indirect dispatch of no workgroups makes it compile now (before it looks at any binding) and
// runs nothing. The other drivers compile at link (panfrost, freedreno, llvmpipe, zink, NVIDIA),
// and some read the program's bindings at any dispatch (panfrost): they get none.
bool compilesAtDispatch() {
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return renderer && std::strncmp(renderer, "V3D ", 4) == 0;
}

void dispatchNothing(GLuint program) {
  GLint old_program = 0, old_indirect = 0;
  glGetIntegerv(GL_CURRENT_PROGRAM, &old_program);
  glGetIntegerv(GL_DISPATCH_INDIRECT_BUFFER_BINDING, &old_indirect);
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, buffer);
  const GLuint none[3] = {0, 0, 0};
  glBufferData(GL_DISPATCH_INDIRECT_BUFFER, sizeof none, none, GL_STATIC_DRAW);
  glUseProgram(program);
  glDispatchComputeIndirect(0);
  glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, GLuint(old_indirect));
  glDeleteBuffers(1, &buffer);
  // The program current before may have been deleted since (it is then no program's name).
  glUseProgram(old_program && glIsProgram(GLuint(old_program)) ? GLuint(old_program) : 0);
}

struct Reports {
  std::mutex mutex;
  std::vector<ProgramReport> list;
  std::set<std::string> keys;
  bool quiet = false;
};

Reports& reportsState() {
  static Reports r;
  return r;
}

// Programs a long run builds are few; a bound keeps a process that rebuilds forever flat.
constexpr size_t kMaxReports = 4096;

}  // namespace

std::vector<ProgramReport> ShaderLibrary::reports() {
  Reports& r = reportsState();
  std::lock_guard lock(r.mutex);
  return r.list;
}

void ShaderLibrary::clearReports() {
  Reports& r = reportsState();
  std::lock_guard lock(r.mutex);
  r.list.clear();
  r.keys.clear();
}

std::optional<ProgramReport> ShaderLibrary::fallbackSince(size_t mark) {
  Reports& r = reportsState();
  std::lock_guard lock(r.mutex);
  for (size_t i = mark; i < r.list.size(); ++i)
    if (r.list[i].verdict.fallback) return r.list[i];
  return std::nullopt;
}

size_t ShaderLibrary::reportCount() {
  Reports& r = reportsState();
  std::lock_guard lock(r.mutex);
  return r.list.size();
}

void ShaderLibrary::setQuietDriver(bool quiet) {
  Reports& r = reportsState();
  std::lock_guard lock(r.mutex);
  r.quiet = quiet;
}

std::string ShaderDefines::describe() const {
  std::string out;
  for (const auto& [name, value] : defines_) out += (out.empty() ? "" : " ") + name + "=" + value;
  return out;
}

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

Result<ResolvedShader> ShaderLibrary::resolved(std::string_view name) const {
  return resolveShaderIncludes(files_, name);
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
  std::vector<ResolvedShader> texts;
  for (const Stage& stage : stages) {
    Result<ResolvedShader> text = resolved(stage.name);
    if (!text) return text.error();
    what += (what.empty() ? "" : "+") + std::string(stage.name);
    key.append(std::to_string(stage.type)).append(1, '\n').append(preamble);
    key.append(text->text).append(1, '\0');
    texts.push_back(std::move(text.value()));
  }
  const bool cached = cache_ && cache_->usable();
  logCacheOnce(cache_, cached);
  const bool compute = stages.size() == 1 && stages.begin()->type == GL_COMPUTE_SHADER;
  Reports& reports = reportsState();
  bool quiet = false;
  {
    std::lock_guard lock(reports.mutex);
    quiet = reports.quiet;
  }
  DriverMessageWindow window(quiet);
  std::vector<std::string> warnings;
  Result<GlProgram> program = GlProgram();
  std::string why;
  if (cached) {
    if (GlProgram loaded = cache_->load(key, &why)) {
      logDebug("program " + what + ": loaded from the program cache in " + msSince(start));
      program = std::move(loaded);
    } else {
      logDebug("program " + what + ": not in the program cache (" + why + ")");
    }
  }
  if (!program->get()) {
    std::vector<GlShader> shaders;
    size_t i = 0;
    for (const Stage& stage : stages) {
      Result<GlShader> shader = compile(stage.type, preamble, texts[i++], &warnings);
      if (!shader) return shader.error();
      shaders.push_back(std::move(shader.value()));
    }
    program = link(shaders, what, cached);
    if (!program) return program;
    std::string outcome;
    if (cached)
      outcome = cache_->store(key, program->get(), &why) ? ", stored in the program cache"
                                                         : ", not stored (" + why + ")";
    logDebug("program " + what + ": compiled and linked in " + msSince(start) + outcome);
  }
  if (compute && compilesAtDispatch()) dispatchNothing(program->get());
  std::vector<std::string> lines = window.finish();
  lines.insert(lines.end(), warnings.begin(), warnings.end());
  ProgramReport report{what, d.describe(), compute, judgeDriverMessages(lines)};
  if (compute) {  // a driver may compile its own helpers meanwhile (v3d's blit shaders)
    std::erase_if(report.verdict.shaders, [](const ShaderStatistics& s) {
      // Mesa's names: v3d and panfrost "MESA_SHADER_COMPUTE", freedreno "CL".
      return s.stage.find("COMPUTE") == std::string::npos && s.stage != "CS" && s.stage != "CL";
    });
  }
  {
    std::lock_guard lock(reports.mutex);
    if (reports.list.size() < kMaxReports && reports.keys.insert(key).second)
      reports.list.push_back(report);
  }
  if (report.verdict.refused)
    return fail(ErrorCode::kUnsupported, "glsl_es/", what, ": ", kDriverRefusal, ": ",
                report.verdict.refusal);
  return program;
}

}  // namespace esf
