#pragma once
// The histogram graph of seed part 2, drawn by glsl_es/graph.frag into an RGBA8 target, and
// its plain CPU reference. Colours: the seed's 16-entry table indexed by the 4-bit mask of
// channels drawn at a pixel (r 1, g 2, b 4, l 8): black, red, green, yellow, blue, magenta,
// cyan, grey 128, and white for every mask with luma.
#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "esframe/base/result.hpp"
#include "esframe/histogram_data.hpp"
#include "esframe/rgba_image.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

// RGBA bytes of colour `mask` (0..15).
std::array<uint8_t, 4> graphColour(int mask);
// The mask bit of a channel letter: r 1, g 2, b 4, l 8.
uint32_t graphChannelBit(char letter);

// CPU reference: the same rule as graph.frag, row 0 at the top (as PNG stores it).
RgbaImage renderGraphReference(const HistogramData& hist, std::span<const float> scale, int width,
                               int height);

class GraphRenderer {
 public:
  // Compiles graph.vert/graph.frag for this bins/channels layout; width x height is the size
  // of the image render() draws into.
  static Result<GraphRenderer> create(int bins, const std::string& channels, int width, int height);

  // Draws from the histogram SSBO (uint counts[bins * channels]) and the scale stage's SSBO
  // (4 words per channel, the float scale in word 3: core/stages/scale.hpp) into the renderer's own
  // texture. Copies both on the GPU; issues the buffer-update barrier the copy needs after compute
  // writes.
  Status render(GLuint counts_buffer, GLuint scale_buffer);
  // Same, into the currently bound draw framebuffer at viewport (x, y, w, h) (the DRM output).
  Status renderTo(GLuint counts_buffer, GLuint scale_buffer, int x, int y, int w, int h);
  // The last render(), row 0 at the top.
  Result<RgbaImage> read() const;
  GLuint texture() const { return target_.get(); }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  GraphRenderer() = default;
  Status upload(GLuint counts_buffer, GLuint scale_buffer);

  int bins_ = 0, width_ = 0, height_ = 0;
  std::string channels_;
  GlProgram program_;
  GlVertexArray vao_;
  GlTexture counts_tex_, scales_tex_, target_;
  GlFramebuffer fbo_;
};

// Reads an RGBA8 texture back through a framebuffer; row 0 of the result is texture row 0
// (the working image's top row; the graph's bottom row).
Result<RgbaImage> readTexture(GLuint texture, int width, int height);

}  // namespace esf
