#pragma once
// The histogram graph, drawn by glsl_es/graph.frag into an RGBA8 target, and its plain CPU
// reference (graph_reference.cpp). Modes, decorations and colours: graph_layout.hpp.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/outputs/graph_layout.hpp"
#include "esframe/base/result.hpp"
#include "esframe/graph_options.hpp"
#include "esframe/histogram_data.hpp"
#include "esframe/rgba_image.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

// The plain picture: all channels overlaid, linear, no decorations.
constexpr GraphOptions kPlainGraph{GraphMode::kOverlay, false, false};

// CPU reference: the same rule as graph.frag, row 0 at the top (as PNG stores it). The log
// scale takes each channel's largest count from `hist` (the GPU: the scale buffer's maxCount).
RgbaImage renderGraphReference(const HistogramData& hist, std::span<const float> scale, int width,
                               int height, const GraphOptions& options = kPlainGraph,
                               const GraphLabels& labels = {}, uint8_t background_alpha = 255);

// What the graph renderers (GraphRenderer and ScopeRenderer) share: their RGBA8 target with its
// framebuffer, the integer textures their shaders read with texelFetch, a colour as a vec4
// uniform, the caption's columns into their R8UI text texture (kGraphMaxTextColumns wide).
struct RgbaTarget {
  GlTexture texture;
  GlFramebuffer fbo;
};
Result<RgbaTarget> makeRgbaTarget(int width, int height, std::string_view what);
GlTexture integerTexture(int width, int height, GLenum format);
void setColourUniform(GLuint program, const char* name, const std::array<uint8_t, 4>& colour);
void uploadCaption(GLuint text_texture, const std::string& caption);

class GraphRenderer {
 public:
  // Compiles graph.vert/graph.frag for this bins/channels layout and mode; width x height is
  // the size of the image render() draws into. background_alpha: the alpha of the background
  // (below 255 for a plane that blends per-pixel alpha).
  static Result<GraphRenderer> create(int bins, const std::string& channels, int width, int height,
                                      const GraphOptions& options = kPlainGraph,
                                      uint8_t background_alpha = 255);

  // Draws from the histogram SSBO (uint counts[bins * channels]) and the scale stage's SSBO
  // (4 words per channel, the float scale in word 3: core/stages/scale.hpp) into the renderer's own
  // texture. Copies both on the GPU; issues the buffer-update barrier the copy needs after compute
  // writes.
  // labels: this frame's caption and clipped pixels (graphLabels()).
  Status render(GLuint counts_buffer, GLuint scale_buffer, const GraphLabels& labels = {});
  // Same from counts on the CPU (interleaved as the histogram stage writes them) and one float
  // scale per channel, uploaded into the renderer's own buffers: the raw source's path.
  Status renderCounts(const HistogramData& hist, std::span<const float> scales,
                      const GraphLabels& labels = {});
  // Same, into the currently bound draw framebuffer at viewport (x, y, w, h) (the DRM output).
  Status renderTo(GLuint counts_buffer, GLuint scale_buffer, int x, int y, int w, int h,
                  const GraphLabels& labels = {});
  // The last render(), row 0 at the top.
  Result<RgbaImage> read() const;
  GLuint texture() const { return target_.texture.get(); }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  GraphRenderer() = default;
  Status upload(GLuint counts_buffer, GLuint scale_buffer, const GraphLabels& labels);

  int bins_ = 0, width_ = 0, height_ = 0;
  std::string channels_;
  GraphOptions options_;
  GlProgram program_;
  GlVertexArray vao_;
  GlTexture counts_tex_, scales_tex_, text_tex_;
  RgbaTarget target_;
  GlBuffer cpu_counts_, cpu_scales_;  // renderCounts()' uploads
};

// Reads an RGBA8 texture back through a framebuffer; row 0 of the result is texture row 0
// (the working image's top row; the graph's bottom row).
Result<RgbaImage> readTexture(GLuint texture, int width, int height);
// The same with row 0 of the result the texture's last row: a graph's top row, as PNG stores it.
Result<RgbaImage> readTextureTopDown(GLuint texture, int width, int height);

}  // namespace esf
