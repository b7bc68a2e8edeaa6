#pragma once
// Compiles the shaders embedded from glsl_es/. Parameters (workgroup size, bins, tile sizes)
// are #defines in a generated preamble, so the compiler folds them as constants; a
// "#line 1" after the preamble keeps the driver's line numbers equal to the file's. A program
// already built by an earlier run comes from the program cache (program_cache.hpp) instead;
// each build is logged at debug level with its time (the start-up timeline of `esframe -vv`).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "esframe/base/result.hpp"
#include "glsl_es/embedded_file.hpp"
#include "platform/driver_messages.hpp"
#include "platform/gl_objects.hpp"
#include "platform/program_cache.hpp"
#include "platform/shader_source.hpp"

namespace esf {

class ShaderDefines {
 public:
  ShaderDefines& set(const std::string& name, long long value) {
    return set(name, std::to_string(value));
  }
  ShaderDefines& set(const std::string& name, const std::string& value) {
    defines_.emplace_back(name, value);
    return *this;
  }
  std::string preamble() const;
  std::string describe() const;  // "LOCAL_X=16 LOCAL_Y=8", "" for none

 private:
  std::vector<std::pair<std::string, std::string>> defines_;
};

// One program as the driver built it: what it said, judged (driver_messages.hpp).
struct ProgramReport {
  std::string name;     // "histogram.comp", "graph.vert+graph.frag"
  std::string defines;  // ShaderDefines::describe()
  bool compute = false;
  DriverVerdict verdict;
};

// The words of a driver's refusal in an Error's message (the program's name comes before them):
// v3d's silent one at the first dispatch (kDriverRefusal), or a compile or link error, the
// driver's log after it (a workgroup past Mali-T860's 128 invocations). esframe's own shaders
// compile on every driver it is tested on, so either means this driver cannot run the program.
inline constexpr std::string_view kDriverRefusal = "the GPU driver cannot compile it";
inline constexpr std::string_view kCompileError = ": compile error: ";
inline constexpr std::string_view kLinkError = ": link error: ";
inline bool isDriverRefusal(const Error& e) {
  return e.message.find(kDriverRefusal) != std::string::npos ||
         e.message.find(kCompileError) != std::string::npos ||
         e.message.find(kLinkError) != std::string::npos;
}

class ShaderLibrary {
 public:
  // Every program built in this process since the last clearReports(), in build order, one
  // report per distinct source (later builds of the same text are not repeated).
  static std::vector<ProgramReport> reports();
  static void clearReports();
  // A program built after the first `mark` reports that the driver compiled only with its
  // last-resort scheduler (v3d's fallback): `esframe tune` never chooses such a candidate.
  static std::optional<ProgramReport> fallbackSince(size_t mark);
  static size_t reportCount();
  // quiet: what the driver writes on stderr while building is kept for the reports only, not
  // passed on (esframe programs prints it in its own form).
  static void setQuietDriver(bool quiet);

  // The shaders built into esframe (glsl_es/), programs cached in ProgramCache::shared().
  static const ShaderLibrary& builtin();
  // `cache`: where built programs are kept across runs (null: none). It must outlive this.
  explicit ShaderLibrary(std::span<const EmbeddedFile> files, const ProgramCache* cache = nullptr)
      : files_(files), cache_(cache) {}

  // The file as embedded, its #include lines as they stand.
  Result<std::string_view> source(std::string_view name) const;
  // The text the driver gets after the preamble: includes resolved (shader_source.hpp).
  Result<ResolvedShader> resolved(std::string_view name) const;
  // A compute program from one file. Errors read "glsl_es/NAME:LINE: <driver message>" (for a
  // line of an included file "glsl_es/common/FILE:LINE (included by NAME): ...").
  Result<GlProgram> compute(std::string_view name, const ShaderDefines& defines = {}) const;
  // A vertex + fragment program.
  Result<GlProgram> graphics(std::string_view vertex, std::string_view fragment,
                             const ShaderDefines& defines = {}) const;

 private:
  struct Stage {
    GLenum type;
    std::string_view name;
  };
  // Loads from the cache, else compiles, links and stores the program of these stages.
  Result<GlProgram> build(std::initializer_list<Stage> stages, const ShaderDefines& d) const;
  std::span<const EmbeddedFile> files_;
  const ProgramCache* cache_ = nullptr;
};

}  // namespace esf
