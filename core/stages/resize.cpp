#include "core/stages/resize.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "core/stages/stage_gl.hpp"
#include "core/stages/stage_limits.hpp"
#include "platform/shader_library.hpp"

namespace esf {
namespace {
constexpr const char* kResizeStage = "resize";
constexpr int64_t kMaxUnits = 16843009;  // 2^32 / 255: a * b * 255 fits 32 bits
}  // namespace

ResizeParams ResizeParams::defaultsFor(const GlContext& gl) {
  ResizeParams p;
  if (gl.limits().work_group_invocations < 256) p.workgroup_y = 8;  // 16x8 = 128, GLES minimum
  return p;
}

Status ResizeParams::validate(const ComputeLimits& limits) const {
  return checkWorkgroup(limits, kResizeStage, workgroup_x, workgroup_y, 0);
}

Status checkResizeSize(int in_w, int in_h, int out_w, int out_h) {
  if (out_w < 1 || out_h < 1 || out_w > in_w || out_h > in_h)
    return fail(ErrorCode::kInvalidArgument, kResizeStage, ": target ", std::to_string(out_w), "x",
                std::to_string(out_h), " must be between 1x1 and the input's ",
                std::to_string(in_w), "x", std::to_string(in_h), " (downscale only)");
  int64_t a = in_w / std::gcd(in_w, out_w), b = in_h / std::gcd(in_h, out_h);
  if (a * b > kMaxUnits)
    // Well-formed, but the shader's 32-bit weights cannot represent it.
    return fail(ErrorCode::kUnsupported, kResizeStage, ": ", std::to_string(in_w), "x",
                std::to_string(in_h), " -> ", std::to_string(out_w), "x", std::to_string(out_h),
                " needs ", std::to_string(a * b),
                " weight units per output pixel, more than the 32-bit "
                "bound 16843009");
  return {};
}

Result<Resize> Resize::create(const GlContext& gl, const ResizeParams& params) {
  if (Status s = params.validate(gl.limits()); !s) return s.error();
  Resize r;
  r.gl_ = &gl;
  r.params_ = params;
  Result<GlProgram> program = ShaderLibrary::builtin().compute(
      "resize.comp",
      ShaderDefines().set("WG_X", params.workgroup_x).set("WG_Y", params.workgroup_y));
  if (!program) return program.error();
  r.program_ = std::move(program.value());
  return r;
}

Status Resize::run(const GpuImage& in, GpuImage& out) {
  if (in.texture() == out.texture())
    return fail(ErrorCode::kInvalidArgument, kResizeStage, ": input and output are the same image");
  if (Status s = checkResizeSize(in.width(), in.height(), out.width(), out.height()); !s) return s;
  int64_t gx = (out.width() + params_.workgroup_x - 1) / params_.workgroup_x;
  int64_t gy = (out.height() + params_.workgroup_y - 1) / params_.workgroup_y;
  if (Status s = checkDispatch(gl_->limits(), kResizeStage, gx, gy); !s) return s;
  const GLuint g_x = GLuint(std::gcd(in.width(), out.width()));
  const GLuint g_y = GLuint(std::gcd(in.height(), out.height()));
  // The largest footprint spans ceil(W / w) + 1 source columns and as many rows + 1.
  const int64_t cols = in.width() / out.width() + 2, rows = in.height() / out.height() + 2;
  if (Status s = checkLoopIterations(*gl_, kResizeStage, rows * (cols + 1),
                                     "downscale in steps of at most ~250x per pass");
      !s)
    return s;
  GLuint p = program_.get();
  glUseProgram(p);
  bindSourceImage(p, in.texture(), 0);
  glBindImageTexture(0, out.texture(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  glUniform2i(glGetUniformLocation(p, "u_out_size"), out.width(), out.height());
  glUniform2ui(glGetUniformLocation(p, "u_unit_out"), GLuint(in.width()) / g_x,
               GLuint(in.height()) / g_y);
  glUniform2ui(glGetUniformLocation(p, "u_unit_in"), GLuint(out.width()) / g_x,
               GLuint(out.height()) / g_y);
  // Earlier reads/writes of `out` (texelFetch, imageStore, uploads) finish before the stores.
  glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
  glDispatchCompute(GLuint(gx), GLuint(gy), 1);
  glMemoryBarrier(kImageWrittenBarrier);
  return checkGl("resize dispatch");
}

}  // namespace esf
