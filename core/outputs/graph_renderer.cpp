#include "core/outputs/graph_renderer.hpp"

#include <algorithm>
#include <bit>

#include "core/outputs/bitmap_font.hpp"
#include "core/outputs/gl_draw.hpp"
#include "esframe/base/sizes.hpp"
#include "platform/gl_context.hpp"
#include "platform/gl_fence.hpp"
#include "platform/shader_library.hpp"

namespace esf {

void setColourUniform(GLuint program, const char* name, const std::array<uint8_t, 4>& c) {
  glUniform4f(glGetUniformLocation(program, name), float(c[0]) / 255.0f, float(c[1]) / 255.0f,
              float(c[2]) / 255.0f, float(c[3]) / 255.0f);
}

Result<RgbaTarget> makeRgbaTarget(int width, int height, std::string_view what) {
  RgbaTarget t{makeTexture(), makeFramebuffer()};
  glBindTexture(GL_TEXTURE_2D, t.texture.get());
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height);
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, t.fbo.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.texture.get(), 0);
  const GLenum fb = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (fb != GL_FRAMEBUFFER_COMPLETE)
    return fail(ErrorCode::kGpu, what, ": RGBA8 framebuffer incomplete");
  return t;
}

GlTexture integerTexture(int width, int height, GLenum format) {
  GlTexture t = makeTexture();
  glBindTexture(GL_TEXTURE_2D, t.get());
  glTexStorage2D(GL_TEXTURE_2D, 1, format, width, height);
  // Integer textures are incomplete (texelFetch reads 0) unless both filters are NEAREST.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  return t;
}

void uploadCaption(GLuint text_texture, const std::string& caption) {
  std::vector<uint8_t> text = textColumns(caption);
  text.resize(kGraphMaxTextColumns, 0);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glBindTexture(GL_TEXTURE_2D, text_texture);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kGraphMaxTextColumns, 1, GL_RED_INTEGER, GL_UNSIGNED_BYTE,
                  text.data());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindTexture(GL_TEXTURE_2D, 0);
}

Result<GraphRenderer> GraphRenderer::create(int bins, const std::string& channels, int width,
                                            int height, const GraphOptions& options,
                                            uint8_t background_alpha) {
  if (bins < 1 || bins > 256)
    return fail(ErrorCode::kInvalidArgument, "graph: bins must be in [1, 256], got ",
                std::to_string(bins));
  if (channels.empty() || channels.size() > 4)
    return fail(ErrorCode::kInvalidArgument, "graph: 1 to 4 channels, got '", channels, "'");
  if (Status s = checkFrameSize("graph", width, height); !s) return s.error();
  const size_t luma = channels.find('l');
  if (options.mode == GraphMode::kLuma && luma == std::string::npos)
    return fail(ErrorCode::kInvalidArgument, "graph: mode luma needs the l channel, got '",
                channels, "'");
  if (options.mode == GraphMode::kParade && width < int(channels.size()))
    return fail(ErrorCode::kInvalidArgument, "graph: a parade needs a column per channel, width ",
                std::to_string(width));
  GraphRenderer g;
  g.options_ = options;
  g.bins_ = bins;
  g.channels_ = channels;
  g.width_ = width;
  g.height_ = height;
  Result<GlProgram> program =
      ShaderLibrary::builtin().graphics("graph.vert", "graph.frag",
                                        ShaderDefines()
                                            .set("BINS", bins)
                                            .set("CHANNELS", int(channels.size()))
                                            .set("MODE", int(options.mode))
                                            .set("LOG_SCALE", options.log_scale ? 1 : 0));
  if (!program) return program.error();
  g.program_ = std::move(program.value());
  g.vao_ = makeVertexArray();
  g.counts_tex_ = integerTexture(bins * int(channels.size()), 1, GL_R32UI);
  g.scales_tex_ = integerTexture(4 * int(channels.size()), 1, GL_R32UI);
  g.text_tex_ = integerTexture(kGraphMaxTextColumns, 1, GL_R8UI);
  Result<RgbaTarget> target = makeRgbaTarget(width, height, "graph");
  if (!target) return target.error();
  g.target_ = std::move(target.value());

  const GLuint p = g.program_.get();
  glUseProgram(p);
  glUniform1i(glGetUniformLocation(p, "counts"), 0);
  glUniform1i(glGetUniformLocation(p, "scales"), 1);
  glUniform1i(glGetUniformLocation(p, "text"), 2);
  glUniform1i(glGetUniformLocation(p, "luma_channel"), luma == std::string::npos ? 0 : int(luma));
  GLuint bits[4] = {0, 0, 0, 0};
  for (size_t c = 0; c < channels.size(); ++c) bits[c] = graphChannelBit(channels[c]);
  glUniform1uiv(glGetUniformLocation(p, "channel_bit"), 4, bits);
  float colours[16 * 4];
  for (int m = 0; m < 16; ++m)
    for (int k = 0; k < 4; ++k)
      colours[m * 4 + k] = float(graphColour(m, options.source)[size_t(k)]) / 255.0f;
  colours[3] = float(background_alpha) / 255.0f;
  glUniform4fv(glGetUniformLocation(p, "colors"), 16, colours);
  setColourUniform(p, "grid_color", kGraphGridColour);
  setColourUniform(p, "text_color", kGraphTextColour);
  setColourUniform(p, "marker_color", kGraphMarkerColour);
  glUseProgram(0);
  if (Status s = checkGl("graph: setup"); !s) return s.error();
  return g;
}

Status GraphRenderer::upload(GLuint counts_buffer, GLuint scale_buffer, const GraphLabels& labels) {
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
  uploadCaption(text_tex_.get(), labels.caption);
  return checkGl("graph: copying the histogram, scale and caption");
}

Status GraphRenderer::renderCounts(const HistogramData& hist, std::span<const float> scales,
                                   const GraphLabels& labels) {
  if (hist.channels != channels_ || hist.bins != bins_ || scales.size() != channels_.size())
    return fail(ErrorCode::kInvalidArgument, "graph: counts for '", hist.channels, "' x ",
                std::to_string(hist.bins), " bins, the renderer draws '", channels_, "' x ",
                std::to_string(bins_));
  if (!cpu_counts_) {
    cpu_counts_ = makeBuffer();
    cpu_scales_ = makeBuffer();
  }
  // The scale stage's layout (core/stages/scale.hpp): the graph reads maxCount (word 0, the log
  // scale) and the scale (word 3).
  std::vector<uint32_t> scale_words;
  for (int c = 0; c < hist.channelCount(); ++c) {
    uint32_t max_count = 0;
    for (int b = 0; b < hist.bins; ++b) max_count = std::max(max_count, hist.at(b, c));
    scale_words.insert(scale_words.end(),
                       {max_count, 0, 0, std::bit_cast<uint32_t>(scales[size_t(c)])});
  }
  streamWords(cpu_counts_.get(), hist.counts);
  streamWords(cpu_scales_.get(), scale_words);
  if (Status s = checkGl("graph: uploading CPU counts"); !s) return s;
  return render(cpu_counts_.get(), cpu_scales_.get(), labels);
}

Status GraphRenderer::renderTo(GLuint counts_buffer, GLuint scale_buffer, int x, int y, int w,
                               int h, const GraphLabels& labels) {
  if (Status s = upload(counts_buffer, scale_buffer, labels); !s) return s;
  const GraphLayout layout = graphLayout(options_, w, h, labels);
  const GLuint p = program_.get();
  glUseProgram(p);
  glUniform2i(glGetUniformLocation(p, "size"), w, h);
  glUniform2i(glGetUniformLocation(p, "origin"), x, y);
  glUniform1i(glGetUniformLocation(p, "text_scale"), layout.text_scale);
  glUniform1i(glGetUniformLocation(p, "strip_rows"), layout.strip_rows);
  glUniform1i(glGetUniformLocation(p, "text_columns"), layout.text_columns);
  glUniform1i(glGetUniformLocation(p, "marker_width"), layout.marker_width);
  glUniform1i(glGetUniformLocation(p, "grid"), layout.grid ? 1 : 0);
  glUniform2i(glGetUniformLocation(p, "clip_rows"), layout.clip_rows_low, layout.clip_rows_high);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, counts_tex_.get());
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, scales_tex_.get());
  glActiveTexture(GL_TEXTURE2);
  glBindTexture(GL_TEXTURE_2D, text_tex_.get());
  glViewport(x, y, w, h);
  drawViewportQuad(vao_.get());
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
  return checkGl("graph: draw");
}

Status GraphRenderer::render(GLuint counts_buffer, GLuint scale_buffer, const GraphLabels& labels) {
  glBindFramebuffer(GL_FRAMEBUFFER, target_.fbo.get());
  Status s = renderTo(counts_buffer, scale_buffer, 0, 0, width_, height_, labels);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return s;
}

Result<RgbaImage> GraphRenderer::read() const {
  return readTextureTopDown(target_.texture.get(), width_, height_);
}

Result<RgbaImage> readTextureTopDown(GLuint texture, int width, int height) {
  Result<RgbaImage> bottom_up = readTexture(texture, width, height);
  if (!bottom_up) return bottom_up;
  // GL's row 0 is the bottom of the graph; PNG's row 0 is the top.
  RgbaImage out(width, height);
  const size_t row_bytes = size_t(width) * 4;
  for (int y = 0; y < height; ++y)
    std::copy_n(bottom_up->at(0, height - 1 - y), row_bytes, out.at(0, y));
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
    // glReadPixels would wait for the GPU without a limit: a hung GPU becomes an error here.
    if (Status done = GlFence::insert("the graph's read-back").wait(kGpuWatchdog); !done) {
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      return done.error();
    }
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
