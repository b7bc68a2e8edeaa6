#pragma once
// ESFRAME_GL_LIMITS=gles31-min: esframe treats the context as if it had only what OpenGL ES 3.1
// guarantees (its specification's tables of implementation-dependent compute and shader limits):
// 128 invocations per workgroup (128 x 128 x 64 a side), 16 KB of shared memory, 65535
// workgroups a side, 4 storage buffer bindings, 2^27-byte storage blocks, and in one compute
// shader 4 storage blocks and 4 image uniforms. A conformant driver may offer no more, and the
// boards' drivers sit between these and what llvmpipe and NVIDIA offer (v3d: 256 invocations,
// 32 KB): every default and stage must run within them, or refuse with one line naming the limit.
// The clamp is in what esframe asks of the driver (GlContext::limits()) and in each program's
// storage blocks, bindings and images, checked when it is linked or loaded. Texture sizes stay
// the driver's: import already refuses a frame wider than GL_MAX_TEXTURE_SIZE.
#include <GLES3/gl31.h>

#include <string_view>

#include "esframe/base/result.hpp"

namespace esf {

struct ComputeLimits;

enum class GlLimits {
  kDriver,          // what the driver reports (ESFRAME_GL_LIMITS unset or empty)
  kGles31Minimums,  // ESFRAME_GL_LIMITS=gles31-min
};

// The setting of ESFRAME_GL_LIMITS; another value is an error naming it.
Result<GlLimits> glLimitsSetting();
// Lowers each limit to the GLES 3.1 minimum where the driver reports more.
void clampToGles31Minimums(ComputeLimits& limits);
// Under kGles31Minimums: fails (kUnsupported) when a compute program declares more storage blocks
// or image uniforms than GLES 3.1 guarantees, or binds a storage block past the guaranteed
// bindings. `what` names the program ("histogram.comp").
Status checkProgramWithinGles31Minimums(GLuint program, std::string_view what);

}  // namespace esf
