#include "core/outputs/drm_frame.hpp"

#include <algorithm>

#include "core/outputs/gl_draw.hpp"
#include "platform/gl_context.hpp"
#include "platform/shader_library.hpp"

namespace esf {

FitRect fitRect(int src_w, int src_h, int dst_w, int dst_h) {
  if (src_w < 1 || src_h < 1 || dst_w < 1 || dst_h < 1) return {};
  FitRect r;
  // Compare the aspects without division: src_w / src_h >= dst_w / dst_h.
  if (int64_t(src_w) * dst_h >= int64_t(src_h) * dst_w) {
    r.width = dst_w;  // as wide as the screen, bars above and below
    r.height = int((int64_t(2) * src_h * dst_w + src_w) / (int64_t(2) * src_w));
  } else {
    r.height = dst_h;  // as tall as the screen, bars left and right
    r.width = int((int64_t(2) * src_w * dst_h + src_h) / (int64_t(2) * src_h));
  }
  r.width = std::clamp(r.width, 1, dst_w);
  r.height = std::clamp(r.height, 1, dst_h);
  r.x = (dst_w - r.width) / 2;
  r.y = (dst_h - r.height) / 2;
  return r;
}

Result<FrameScaler> FrameScaler::create() {
  FrameScaler f;
  Result<GlProgram> program = ShaderLibrary::builtin().graphics("graph.vert", "frame.frag");
  if (!program) return program.error();
  f.program_ = std::move(program.value());
  f.vao_ = makeVertexArray();
  glUseProgram(f.program_.get());
  glUniform1i(glGetUniformLocation(f.program_.get(), "image"), 0);
  glUseProgram(0);
  if (Status s = checkGl("DRM output: frame scaler setup"); !s) return s.error();
  return f;
}

Status FrameScaler::draw(GLuint texture, int src_w, int src_h, int dst_w, int dst_h) const {
  const FitRect r = fitRect(src_w, src_h, dst_w, dst_h);
  // The working image was written by compute shaders (imageStore): make it visible to sampling.
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT);
  const GLuint p = program_.get();
  glUseProgram(p);
  glUniform4i(glGetUniformLocation(p, "fit"), r.x, r.y, r.width, r.height);
  glUniform2i(glGetUniformLocation(p, "source_size"), src_w, src_h);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture);
  glViewport(0, 0, dst_w, dst_h);
  drawViewportQuad(vao_.get());
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
  return checkGl("DRM output: drawing the frame into the primary plane's buffer");
}

}  // namespace esf
