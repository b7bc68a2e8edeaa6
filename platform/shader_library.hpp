#pragma once
// Compiles the shaders embedded from glsl_es/. Parameters (workgroup size, bins, tile sizes)
// are #defines in a generated preamble, the way the seed articles inject constants; a
// "#line 1" after the preamble keeps the driver's line numbers equal to the file's.
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "esframe/base/result.hpp"
#include "glsl_es/embedded_file.hpp"
#include "platform/gl_objects.hpp"

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
  // The shaders built into esframe (glsl_es/).
  static const ShaderLibrary& builtin();
  explicit ShaderLibrary(std::span<const EmbeddedFile> files) : files_(files) {}

  Result<std::string_view> source(std::string_view name) const;
  // A compute program from one file. Errors read "glsl_es/NAME:LINE: <driver message>".
  Result<GlProgram> compute(std::string_view name, const ShaderDefines& defines = {}) const;
  // A vertex + fragment program.
  Result<GlProgram> graphics(std::string_view vertex, std::string_view fragment,
                             const ShaderDefines& defines = {}) const;

 private:
  Result<GlShader> compile(GLenum stage, std::string_view name, const ShaderDefines& d) const;
  std::span<const EmbeddedFile> files_;
};

}  // namespace esf
