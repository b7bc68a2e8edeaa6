#pragma once
// The scope graphs (waveform, RGB parade, vectorscope: GraphOptions::scope), drawn by
// glsl_es/scope.frag into an RGBA8 target, and their plain CPU reference (scope_reference.cpp).
// Geometry, brightness and colours: scope_layout.hpp.
#include <cstdint>

#include "core/outputs/graph_layout.hpp"
#include "core/outputs/graph_renderer.hpp"
#include "core/outputs/scope_layout.hpp"
#include "esframe/base/result.hpp"
#include "esframe/graph_options.hpp"
#include "esframe/rgba_image.hpp"
#include "esframe/scope_data.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

// CPU reference: the same rule as scope.frag, row 0 at the top (as PNG stores it). options.scope
// picks the scope; log_scale and decorations apply as for the histogram graph.
Result<RgbaImage> renderScopeReference(const ScopeCounts& counts, int width, int height,
                                       const GraphOptions& options, const GraphLabels& labels = {},
                                       uint8_t background_alpha = 255);

class ScopeRenderer {
 public:
  // Compiles graph.vert/scope.frag for options.scope (not kNone); width x height is the size of
  // the image render() draws into (a parade needs 3 columns). background_alpha: the alpha of the
  // background (below 255 for a plane that blends per-pixel alpha).
  static Result<ScopeRenderer> create(int width, int height, const GraphOptions& options,
                                      uint8_t background_alpha = 255);

  // Uploads the scope's counts (on the CPU in FrameResult::scopes) and draws them into the
  // renderer's own texture; labels: the caption (graphLabels()).
  Status render(const ScopeCounts& counts, const GraphLabels& labels = {});
  // Same, into the currently bound draw framebuffer at viewport (x, y, w, h).
  Status renderTo(const ScopeCounts& counts, int x, int y, int w, int h,
                  const GraphLabels& labels = {});
  // The last render(), row 0 at the top.
  Result<RgbaImage> read() const;
  GLuint texture() const { return target_.texture.get(); }

 private:
  ScopeRenderer() = default;

  int width_ = 0, height_ = 0;
  GraphOptions options_;
  GlProgram program_;
  GlVertexArray vao_;
  GlTexture counts_tex_, text_tex_;
  int counts_rows_ = 0;  // rows of counts_tex_ (made for the first frame's counts)
  RgbaTarget target_;
};

}  // namespace esf
