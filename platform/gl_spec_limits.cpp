#include "platform/gl_spec_limits.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "platform/gl_context.hpp"

namespace esf {
namespace {

// OpenGL ES 3.1, the minimum maximums of its implementation-dependent limits.
constexpr GLint kMinWorkGroupCount = 65535;
constexpr GLint kMinWorkGroupSize[3] = {128, 128, 64};
constexpr GLint kMinWorkGroupInvocations = 128;
constexpr GLint kMinSharedMemoryBytes = 16384;
constexpr GLint kMinStorageBufferBindings = 4;
constexpr GLint kMinStorageBlockBytes = 1 << 27;
constexpr GLint kMinComputeStorageBlocks = 4;
constexpr GLint kMinComputeImageUniforms = 4;

bool isImageType(GLint type) {
  switch (type) {
    case GL_IMAGE_2D:
    case GL_IMAGE_3D:
    case GL_IMAGE_CUBE:
    case GL_IMAGE_2D_ARRAY:
    case GL_INT_IMAGE_2D:
    case GL_INT_IMAGE_3D:
    case GL_INT_IMAGE_CUBE:
    case GL_INT_IMAGE_2D_ARRAY:
    case GL_UNSIGNED_INT_IMAGE_2D:
    case GL_UNSIGNED_INT_IMAGE_3D:
    case GL_UNSIGNED_INT_IMAGE_CUBE:
    case GL_UNSIGNED_INT_IMAGE_2D_ARRAY:
      return true;
    default:
      return false;
  }
}

}  // namespace

Result<GlLimits> glLimitsSetting() {
  const char* setting = std::getenv("ESFRAME_GL_LIMITS");
  if (!setting || !*setting) return GlLimits::kDriver;
  if (std::string_view(setting) == "gles31-min") return GlLimits::kGles31Minimums;
  return fail(ErrorCode::kInvalidArgument, "ESFRAME_GL_LIMITS is '", setting,
              "': unset for the driver's limits, or gles31-min for the GLES 3.1 minimums");
}

void clampToGles31Minimums(ComputeLimits& l) {
  for (int k = 0; k < 3; ++k) {
    l.work_group_count[k] = std::min(l.work_group_count[k], kMinWorkGroupCount);
    l.work_group_size[k] = std::min(l.work_group_size[k], kMinWorkGroupSize[k]);
  }
  l.work_group_invocations = std::min(l.work_group_invocations, kMinWorkGroupInvocations);
  l.full_register_invocations = std::min(l.full_register_invocations, l.work_group_invocations);
  l.shared_memory_size = std::min(l.shared_memory_size, kMinSharedMemoryBytes);
  l.ssbo_bindings = std::min(l.ssbo_bindings, kMinStorageBufferBindings);
  l.max_ssbo_size = std::min(l.max_ssbo_size, kMinStorageBlockBytes);
  l.compute_storage_blocks = std::min(l.compute_storage_blocks, kMinComputeStorageBlocks);
  l.compute_image_uniforms = std::min(l.compute_image_uniforms, kMinComputeImageUniforms);
}

Status checkProgramWithinGles31Minimums(GLuint program, std::string_view what) {
  Result<GlLimits> setting = glLimitsSetting();
  if (!setting || setting.value() != GlLimits::kGles31Minimums) return {};
  GLint size[3] = {0, 0, 0};
  glGetProgramiv(program, GL_COMPUTE_WORK_GROUP_SIZE, size);
  const int64_t invocations = int64_t(size[0]) * size[1] * size[2];
  if (invocations > kMinWorkGroupInvocations || size[0] > kMinWorkGroupSize[0] ||
      size[1] > kMinWorkGroupSize[1] || size[2] > kMinWorkGroupSize[2])
    return fail(ErrorCode::kUnsupported, std::string(what), ": a ", std::to_string(size[0]), "x",
                std::to_string(size[1]), "x", std::to_string(size[2]), " workgroup, more than the ",
                std::to_string(kMinWorkGroupInvocations),
                " invocations GLES 3.1 guarantees (ESFRAME_GL_LIMITS=gles31-min)");
  GLint blocks = 0;
  glGetProgramInterfaceiv(program, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &blocks);
  if (blocks > kMinComputeStorageBlocks)
    return fail(ErrorCode::kUnsupported, std::string(what), ": ", std::to_string(blocks),
                " storage blocks, more than the ", std::to_string(kMinComputeStorageBlocks),
                " GLES 3.1 guarantees (ESFRAME_GL_LIMITS=gles31-min)");
  for (GLint i = 0; i < blocks; ++i) {
    const GLenum property = GL_BUFFER_BINDING;
    GLint binding = 0;
    glGetProgramResourceiv(program, GL_SHADER_STORAGE_BLOCK, GLuint(i), 1, &property, 1, nullptr,
                           &binding);
    if (binding >= kMinStorageBufferBindings)
      return fail(ErrorCode::kUnsupported, std::string(what), ": a storage block at binding ",
                  std::to_string(binding), ", past the ", std::to_string(kMinStorageBufferBindings),
                  " bindings GLES 3.1 guarantees (ESFRAME_GL_LIMITS=gles31-min)");
  }
  GLint uniforms = 0, images = 0;
  glGetProgramInterfaceiv(program, GL_UNIFORM, GL_ACTIVE_RESOURCES, &uniforms);
  for (GLint i = 0; i < uniforms; ++i) {
    const GLenum property = GL_TYPE;
    GLint type = 0;
    glGetProgramResourceiv(program, GL_UNIFORM, GLuint(i), 1, &property, 1, nullptr, &type);
    if (isImageType(type)) ++images;
  }
  if (images > kMinComputeImageUniforms)
    return fail(ErrorCode::kUnsupported, std::string(what), ": ", std::to_string(images),
                " image uniforms, more than the ", std::to_string(kMinComputeImageUniforms),
                " GLES 3.1 guarantees (ESFRAME_GL_LIMITS=gles31-min)");
  return checkGl("checking a program against the GLES 3.1 minimums");
}

}  // namespace esf
