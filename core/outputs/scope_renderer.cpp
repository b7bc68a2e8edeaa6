#include "core/outputs/scope_renderer.hpp"

#include <algorithm>
#include <vector>

#include "core/outputs/bitmap_font.hpp"
#include "core/outputs/gl_draw.hpp"
#include "core/outputs/graph_renderer.hpp"
#include "esframe/base/sizes.hpp"
#include "platform/gl_context.hpp"
#include "platform/shader_library.hpp"

namespace esf {
Result<ScopeRenderer> ScopeRenderer::create(int width, int height, const GraphOptions& options,
                                            uint8_t background_alpha) {
  if (options.scope == GraphScope::kNone)
    return fail(ErrorCode::kInvalidArgument, "scope graph: no scope chosen");
  if (Status s = checkFrameSize("scope graph", width, height); !s) return s.error();
  if (options.scope == GraphScope::kParade && width < 3)
    return fail(ErrorCode::kInvalidArgument, "scope graph: a parade needs 3 columns, width ",
                std::to_string(width));
  ScopeRenderer r;
  r.options_ = options;
  r.width_ = width;
  r.height_ = height;
  Result<GlProgram> program =
      ShaderLibrary::builtin().graphics("graph.vert", "scope.frag",
                                        ShaderDefines()
                                            .set("SCOPE", int(options.scope))
                                            .set("LOG_SCALE", options.log_scale ? 1 : 0)
                                            .set("TEX_WIDTH", kScopeTextureWidth)
                                            .set("TARGET_COUNT", kScopeTargetCount));
  if (!program) return program.error();
  r.program_ = std::move(program.value());
  r.vao_ = makeVertexArray();
  r.text_tex_ = integerTexture(kGraphMaxTextColumns, 1, GL_R8UI);
  Result<RgbaTarget> target = makeRgbaTarget(width, height, "scope graph");
  if (!target) return target.error();
  r.target_ = std::move(target.value());

  const GLuint p = r.program_.get();
  glUseProgram(p);
  glUniform1i(glGetUniformLocation(p, "counts"), 0);
  glUniform1i(glGetUniformLocation(p, "text"), 1);
  glUniform1ui(glGetUniformLocation(p, "min_brightness"), kScopeMinBrightness);
  std::array<uint8_t, 4> background = {0, 0, 0, background_alpha};
  setColourUniform(p, "background", background);
  setColourUniform(p, "grid_color", kGraphGridColour);
  setColourUniform(p, "text_color", kGraphTextColour);
  glUniform3i(glGetUniformLocation(p, "grid_levels"), kScopeGridLevels[0], kScopeGridLevels[1],
              kScopeGridLevels[2]);
  GLint target_levels[2 * kScopeTargetCount];
  GLfloat target_colours[4 * kScopeTargetCount];
  for (int k = 0; k < kScopeTargetCount; ++k) {
    const ScopeTarget& t = scopeTargets()[size_t(k)];
    target_levels[2 * k] = t.cb;
    target_levels[2 * k + 1] = t.cr;
    for (int c = 0; c < 4; ++c) target_colours[4 * k + c] = float(t.colour[size_t(c)]) / 255.0f;
  }
  glUniform2iv(glGetUniformLocation(p, "targets"), kScopeTargetCount, target_levels);
  glUniform4fv(glGetUniformLocation(p, "target_colors"), kScopeTargetCount, target_colours);
  glUseProgram(0);
  if (Status s = checkGl("scope graph: setup"); !s) return s.error();
  return r;
}

Status ScopeRenderer::renderTo(const ScopeCounts& counts, int x, int y, int w, int h,
                               const GraphLabels& labels) {
  Result<ScopeCells> cells = scopeCells(counts, options_.scope);
  if (!cells) return cells.error();
  const GraphLayout layout = graphLayout(options_, w, h, labels);
  Result<ScopeScale> scaled = scopeScale(cells.value(), options_.scope, w, h - layout.strip_rows);
  if (!scaled) return scaled.error();
  const ScopeScale& scale = scaled.value();
  const int texels = int(cells->counts.size());
  const int rows = (texels + kScopeTextureWidth - 1) / kScopeTextureWidth;
  if (!counts_tex_ || rows != counts_rows_) {
    counts_tex_ = integerTexture(kScopeTextureWidth, rows, GL_R32UI);
    counts_rows_ = rows;
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glBindTexture(GL_TEXTURE_2D, counts_tex_.get());
  const int full_rows = texels / kScopeTextureWidth;
  if (full_rows > 0)
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, kScopeTextureWidth, full_rows, GL_RED_INTEGER,
                    GL_UNSIGNED_INT, cells->counts.data());
  if (const int rest = texels - full_rows * kScopeTextureWidth; rest > 0)
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, full_rows, rest, 1, GL_RED_INTEGER, GL_UNSIGNED_INT,
                    cells->counts.data() + size_t(full_rows) * kScopeTextureWidth);
  glBindTexture(GL_TEXTURE_2D, 0);
  uploadCaption(text_tex_.get(), labels.caption);
  if (Status s = checkGl("scope graph: uploading the counts and caption"); !s) return s;

  const GLuint p = program_.get();
  glUseProgram(p);
  glUniform2i(glGetUniformLocation(p, "size"), w, h);
  glUniform2i(glGetUniformLocation(p, "origin"), x, y);
  glUniform1i(glGetUniformLocation(p, "columns"), cells->columns);
  glUniform1ui(glGetUniformLocation(p, "peak"), scale.peak);
  glUniform1f(glGetUniformLocation(p, "gain"), scale.gain);
  glUniform1i(glGetUniformLocation(p, "text_scale"), layout.text_scale);
  glUniform1i(glGetUniformLocation(p, "strip_rows"), layout.strip_rows);
  glUniform1i(glGetUniformLocation(p, "text_columns"), layout.text_columns);
  glUniform1i(glGetUniformLocation(p, "grid"), layout.grid ? 1 : 0);
  glUniform1i(glGetUniformLocation(p, "target_box"),
              layout.grid ? scopeTargetBox(std::min(w, h - layout.strip_rows)) : -1);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, counts_tex_.get());
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, text_tex_.get());
  glViewport(x, y, w, h);
  drawViewportQuad(vao_.get());
  glBindTexture(GL_TEXTURE_2D, 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
  return checkGl("scope graph: draw");
}

Status ScopeRenderer::render(const ScopeCounts& counts, const GraphLabels& labels) {
  glBindFramebuffer(GL_FRAMEBUFFER, target_.fbo.get());
  Status s = renderTo(counts, 0, 0, width_, height_, labels);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return s;
}

Result<RgbaImage> ScopeRenderer::read() const {
  return readTextureTopDown(target_.texture.get(), width_, height_);
}

}  // namespace esf
