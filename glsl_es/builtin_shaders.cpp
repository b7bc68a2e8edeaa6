#include "glsl_es/embedded_file.hpp"

namespace esf {

extern const EmbeddedFile esf_builtin_shaders[];
extern const std::size_t esf_builtin_shaders_count;

std::span<const EmbeddedFile> builtinShaders() {
  return {esf_builtin_shaders, esf_builtin_shaders_count};
}

}  // namespace esf
