#pragma once
// Compiles the shaders embedded from glsl_es/. Parameters (workgroup size, bins, tile sizes)
// are #defines in a generated preamble, the way the seed articles inject constants; a
// "#line 1" after the preamble keeps the driver's line numbers equal to the file's. A program
// already built by an earlier run comes from the program cache (program_cache.hpp) instead;
// each build is logged at debug level with its time (the start-up timeline of `esframe -vv`).
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "esframe/base/result.hpp"
#include "glsl_es/embedded_file.hpp"
#include "platform/gl_objects.hpp"
#include "platform/program_cache.hpp"

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

 private:
  std::vector<std::pair<std::string, std::string>> defines_;
};

class ShaderLibrary {
 public:
  // The shaders built into esframe (glsl_es/), programs cached in ProgramCache::shared().
  static const ShaderLibrary& builtin();
  // `cache`: where built programs are kept across runs (null: none). It must outlive this.
  explicit ShaderLibrary(std::span<const EmbeddedFile> files, const ProgramCache* cache = nullptr)
      : files_(files), cache_(cache) {}

  Result<std::string_view> source(std::string_view name) const;
  // A compute program from one file. Errors read "glsl_es/NAME:LINE: <driver message>".
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
