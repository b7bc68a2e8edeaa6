#include "core/stages/demosaic.hpp"

#include <string>

#include "core/image/pixel_program.hpp"
#include "core/stages/stage_gl.hpp"

namespace esf {

Result<Demosaic> Demosaic::create(const GlContext& gl) {
  Demosaic d;
  if (Status s = compilePixelProgram(gl, "demosaic.comp", d.group_, d.program_); !s)
    return s.error();
  d.raw_ = makeTexture();
  return d;
}

Status Demosaic::upload(const std::vector<uint16_t>& raw, int width, int height) {
  if (width < 1 || height < 1 || raw.size() != size_t(width) * size_t(height))
    return fail(ErrorCode::kInvalidArgument, "demosaic: ", std::to_string(raw.size()),
                " values for a ", std::to_string(width), "x", std::to_string(height), " frame");
  glBindTexture(GL_TEXTURE_2D, raw_.get());
  if (width != width_ || height != height_) {
    raw_ = makeTexture();  // immutable storage: a new size needs a new texture
    glBindTexture(GL_TEXTURE_2D, raw_.get());
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_R16UI, width, height);
    // An integer texture is incomplete with any linear filter.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    width_ = width, height_ = height;
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RED_INTEGER, GL_UNSIGNED_SHORT,
                  raw.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  return checkGl("demosaic: raw upload");
}

Status Demosaic::run(const DemosaicParams& p, GpuImage& out) {
  if (out.width() != width_ || out.height() != height_)
    return fail(ErrorCode::kInvalidArgument, "demosaic: the output is ",
                std::to_string(out.width()), "x", std::to_string(out.height()), ", the frame ",
                std::to_string(width_), "x", std::to_string(height_));
  return run(p, out.texture());
}

Status Demosaic::run(const DemosaicParams& p, GLuint out_texture) {
  if (Status s = p.validate(width_, height_); !s) return s;
  const GLuint program = program_.get();
  glUseProgram(program);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, raw_.get());
  glUniform1i(glGetUniformLocation(program, "u_raw"), 0);
  glUniform2i(glGetUniformLocation(program, "u_size"), width_, height_);
  const int red_x = cfaColour(p.order, 1, 0) == 0 || cfaColour(p.order, 1, 1) == 0;
  const int red_y = cfaColour(p.order, 0, 1) == 0 || cfaColour(p.order, 1, 1) == 0;
  glUniform2i(glGetUniformLocation(program, "u_red"), red_x, red_y);
  glUniform2ui(glGetUniformLocation(program, "u_levels"), p.black, p.white);
  glUniform2ui(glGetUniformLocation(program, "u_gains"), p.gain_r, p.gain_b);
  glBindImageTexture(0, out_texture, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  glDispatchCompute(GLuint((width_ + group_.x - 1) / group_.x),
                    GLuint((height_ + group_.y - 1) / group_.y), 1);
  glMemoryBarrier(kImageWrittenBarrier);
  return checkGl("demosaic dispatch");
}

}  // namespace esf
