#include "core/outputs/graph_renderer.hpp"

#include <algorithm>

#include "platform/gl_context.hpp"
#include "platform/shader_library.hpp"

namespace esf {
namespace {

constexpr std::array<std::array<uint8_t, 4>, 8> kColours = {{
    {0, 0, 0, 255},        // nothing
    {255, 0, 0, 255},      // r
    {0, 255, 0, 255},      // g
    {255, 255, 0, 255},    // r g
    {0, 0, 255, 255},      // b
    {255, 0, 255, 255},    // r b
    {0, 255, 255, 255},    // g b
    {128, 128, 128, 255},  // r g b
}};

}  // namespace

std::array<uint8_t, 4> graphColour(int mask) {
  if (mask >= 8) return {255, 255, 255, 255};  // anything with luma
  return kColours[size_t(mask)];
}

uint32_t graphChannelBit(char letter) {
  switch (letter) {
    case 'r':
      return 1;
    case 'g':
      return 2;
    case 'b':
      return 4;
    default:
      return 8;
  }
}

RgbaImage renderGraphReference(const HistogramData& hist, std::span<const float> scale, int width,
                               int height) {
  RgbaImage out(width, height);
  const int channels = hist.channelCount();
  for (int row = 0; row < height; ++row) {  // row counted from the bottom, as GL does
    const float row_centre = float(row) + 0.5f;
    for (int x = 0; x < width; ++x) {
      const int bin = int((int64_t(2 * x + 1) * hist.bins) / (int64_t(2) * width));
      uint32_t mask = 0;
      for (int c = 0; c < channels; ++c) {
        // Two separately rounded float products, as in graph.frag.
        const float h = float(hist.at(bin, c)) * scale[size_t(c)];
        const float scaled = h * float(height);
        if (scaled > row_centre) mask |= graphChannelBit(hist.channels[size_t(c)]);
      }
      const std::array<uint8_t, 4> colour = graphColour(int(mask));
      std::copy(colour.begin(), colour.end(), out.at(x, height - 1 - row));
    }
  }
  return out;
}

Result<GraphRenderer> GraphRenderer::create(int bins, const std::string& channels, int width,
                                            int height) {
  if (bins < 1 || bins > 256)
    return fail(ErrorCode::kInvalidArgument, "graph: bins must be in [1, 256], got ",
                std::to_string(bins));
  if (channels.empty() || channels.size() > 4)
    return fail(ErrorCode::kInvalidArgument, "graph: 1 to 4 channels, got '", channels, "'");
  if (width < 1 || height < 1)
    return fail(ErrorCode::kInvalidArgument, "graph: bad size ", std::to_string(width), "x",
                std::to_string(height));
  GraphRenderer g;
  g.bins_ = bins;
  g.channels_ = channels;
  g.width_ = width;
  g.height_ = height;
  Result<GlProgram> program = ShaderLibrary::builtin().graphics(
      "graph.vert", "graph.frag",
      ShaderDefines().set("BINS", bins).set("CHANNELS", int(channels.size())));
  if (!program) return program.error();
  g.program_ = std::move(program.value());
  g.vao_ = makeVertexArray();
  // Integer textures are incomplete (texelFetch reads 0) unless both filters are NEAREST.
  auto integerTexture = [](int width) {
    GlTexture t = makeTexture();
    glBindTexture(GL_TEXTURE_2D, t.get());
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32UI, width, 1);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
  };
  g.counts_tex_ = integerTexture(bins * int(channels.size()));
  g.scales_tex_ = integerTexture(4 * int(channels.size()));
  g.target_ = makeTexture();
  glBindTexture(GL_TEXTURE_2D, g.target_.get());
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height);
  glBindTexture(GL_TEXTURE_2D, 0);
  g.fbo_ = makeFramebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, g.fbo_.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, g.target_.get(), 0);
  const GLenum fb = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (fb != GL_FRAMEBUFFER_COMPLETE)
    return fail(ErrorCode::kGpu, "graph: RGBA8 framebuffer incomplete");

  const GLuint p = g.program_.get();
  glUseProgram(p);
  glUniform1i(glGetUniformLocation(p, "counts"), 0);
  glUniform1i(glGetUniformLocation(p, "scales"), 1);
  GLuint bits[4] = {0, 0, 0, 0};
  for (size_t c = 0; c < channels.size(); ++c) bits[c] = graphChannelBit(channels[c]);
  glUniform1uiv(glGetUniformLocation(p, "channel_bit"), 4, bits);
  float colours[16 * 4];
  for (int m = 0; m < 16; ++m)
    for (int k = 0; k < 4; ++k) colours[m * 4 + k] = float(graphColour(m)[size_t(k)]) / 255.0f;
  glUniform4fv(glGetUniformLocation(p, "colors"), 16, colours);
  glUseProgram(0);
  if (Status s = checkGl("graph: setup"); !s) return s.error();
  return g;
}

Status GraphRenderer::upload(GLuint counts_buffer, GLuint scale_buffer) {
  // The buffers were written by compute shaders: make those writes visible to pixel unpacks.
  glMemoryBarrier(GL_PIXEL_BUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, counts_buffer);
  glBindTexture(GL_TEXTURE_2D, counts_tex_.get());
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, bins_ * int(channels_.size()), 1, GL_RED_INTEGER,
                  GL_UNSIGNED_INT, nullptr);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, scale_buffer);
  glBindTexture(GL_TEXTURE_2D, scales_tex_.get());
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4 * int(channels_.size()), 1, GL_RED_INTEGER,
                  GL_UNSIGNED_INT, nullptr);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glBindTexture(GL_TEXTURE_2D, 0);
  return checkGl("graph: copying the histogram and scale buffers");
}

Status GraphRenderer::renderTo(GLuint counts_buffer, GLuint scale_buffer, int x, int y, int w,
                               int h) {
  if (Status s = upload(counts_buffer, scale_buffer); !s) return s;
  const GLuint p = program_.get();
  glUseProgram(p);
  glUniform2i(glGetUniformLocation(p, "size"), w, h);
  glUniform2i(glGetUniformLocation(p, "origin"), x, y);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, counts_tex_.get());
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, scales_tex_.get());
  glViewport(x, y, w, h);
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_SCISSOR_TEST);
  glBindVertexArray(vao_.get());
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
  return checkGl("graph: draw");
}

Status GraphRenderer::render(GLuint counts_buffer, GLuint scale_buffer) {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.get());
  Status s = renderTo(counts_buffer, scale_buffer, 0, 0, width_, height_);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return s;
}

Result<RgbaImage> GraphRenderer::read() const {
  Result<RgbaImage> bottom_up = readTexture(target_.get(), width_, height_);
  if (!bottom_up) return bottom_up;
  // GL's row 0 is the bottom of the graph; PNG's row 0 is the top.
  RgbaImage out(width_, height_);
  const size_t row_bytes = size_t(width_) * 4;
  for (int y = 0; y < height_; ++y)
    std::copy_n(bottom_up->at(0, height_ - 1 - y), row_bytes, out.at(0, y));
  return out;
}

Result<RgbaImage> readTexture(GLuint texture, int width, int height) {
  GlFramebuffer fbo = makeFramebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, fbo.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  RgbaImage out(width, height);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE) {
    // Earlier imageStore writes (compute stages) must land before the read.
    glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, out.pixels.data());
  }
  const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (!complete)
    return fail(ErrorCode::kGpu, "cannot read back an RGBA8 texture: framebuffer incomplete");
  if (Status s = checkGl("reading back a texture"); !s) return s.error();
  return out;
}

}  // namespace esf
