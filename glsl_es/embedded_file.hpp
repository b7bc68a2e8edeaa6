#pragma once
// A file compiled into the binary by cmake/EmbedShaders.cmake.
#include <cstddef>
#include <span>
#include <string_view>

namespace esf {

struct EmbeddedFile {
  std::string_view name;  // its path under glsl_es/: "histogram.comp", "common/rgba8.glsl"
  std::string_view text;
};

// The shaders in glsl_es/, built into every esframe binary.
std::span<const EmbeddedFile> builtinShaders();

}  // namespace esf
