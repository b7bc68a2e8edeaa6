#pragma once
// The builtin one-invocation-per-pixel programs (packing, demosaic) compiled at this driver's
// pixel workgroup (platform/workgroup_shape.hpp): the shader's WG_X and WG_Y are that shape.
#include "platform/gl_context.hpp"
#include "platform/shader_library.hpp"
#include "platform/workgroup_shape.hpp"

namespace esf {

// Compiles the builtin shader `name` at the pixel workgroup of `gl`, into `group` and `program`.
inline Status compilePixelProgram(const GlContext& gl, const char* name, WorkgroupShape& group,
                                  GlProgram& program) {
  group = pixelWorkgroup(gl.limits());
  Result<GlProgram> compiled = ShaderLibrary::builtin().compute(
      name, ShaderDefines().set("WG_X", group.x).set("WG_Y", group.y));
  if (!compiled) return compiled.error();
  program = std::move(compiled.value());
  return Status::success();
}

}  // namespace esf
