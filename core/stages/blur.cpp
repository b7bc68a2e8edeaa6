#include "core/stages/blur.hpp"

#include <algorithm>
#include <string>

#include "base/enum_names.hpp"
#include "core/stages/stage_gl.hpp"
#include "core/stages/stage_limits.hpp"
#include "platform/shader_library.hpp"

namespace esf {
namespace {
constexpr const char* kBlurStage = "blur";
constexpr EnumName<BlurStrategy> kBlurStrategies[] = {
    {BlurStrategy::kTiled, "tiled"},   {BlurStrategy::kSliding, "sliding"},
    {BlurStrategy::kFused, "fused"},   {BlurStrategy::kSplit, "split"},
    {BlurStrategy::kStream, "stream"},
};
}  // namespace

const char* blurStrategyName(BlurStrategy s) {
  return nameIn(kBlurStrategies, s);
}

Result<BlurStrategy> parseBlurStrategy(std::string_view name) {
  return parseNameIn(kBlurStrategies, name, "blur strategy");
}

BlurParams BlurParams::defaultsFor(const GlContext&) {
  return BlurParams{};  // the 4 x 128 tile, 32 invocations: fits every GLES 3.1 driver
}

int64_t BlurParams::fusedSharedBytes() const {
  const int64_t halo = filter_dim - 1,
                rows = tile_rows + (strategy == BlurStrategy::kSplit ? 0 : halo);
  return ((tile_width + halo) + tile_width) * rows * 4;
}

int64_t BlurParams::streamSharedBytes() const {
  const int64_t columns = int64_t(workgroup_size) * segment, row = columns + filter_dim - 1;
  return (2 * (row + row / 32 + 1) + int64_t(filter_dim) * columns) * 4;
}

namespace {

// Columns (lines) per workgroup of split's vertical pass, in either form.
int splitVerticalLines(const ComputeLimits& limits) {
  return std::min(64, limits.work_group_size[0]);
}

// filter_dim odd and within the strategy's limit; `context` says whose limit it is.
Status checkFilterDim(const BlurParams& p, const std::string& context) {
  if (p.filter_dim % 2 == 1 && p.filter_dim >= 1 && p.filter_dim <= p.maxFilterDim())
    return Status::success();
  return fail(ErrorCode::kInvalidArgument, kBlurStage, ": filter_dim must be odd and in [1, ",
              std::to_string(p.maxFilterDim()), "] ", context, ", got ",
              std::to_string(p.filter_dim),
              p.filter_dim % 2 == 0 ? " (an even tap count shifts the image half a pixel)" : "");
}

}  // namespace

Status BlurParams::validate(const ComputeLimits& limits) const {
  if (buffer_intermediate && strategy != BlurStrategy::kSplit)
    return fail(ErrorCode::kInvalidArgument, kBlurStage,
                ": buffer_intermediate is a parameter of the split strategy only");
  if (column_quads && !buffer_intermediate)
    return fail(ErrorCode::kInvalidArgument, kBlurStage,
                ": column_quads is a parameter of the split strategy through a buffer only");
  if (row_quads && !buffer_intermediate)
    return fail(ErrorCode::kInvalidArgument, kBlurStage,
                ": row_quads is a parameter of the split strategy through a buffer only");
  if (strategy == BlurStrategy::kStream) {
    if (Status s = checkRange(kBlurStage, "iterations", iterations, 1, 100); !s) return s;
    if (Status s = checkRange(kBlurStage, "tile_rows", tile_rows, 1, 4096); !s) return s;
    if (Status s = checkRange(kBlurStage, "segment", segment, 1, 16); !s) return s;
    if (Status s = checkFilterDim(*this, "for the stream strategy"); !s) return s;
    return checkWorkgroup(limits, "blur stream", workgroup_size, 1, streamSharedBytes());
  }
  if (strategy == BlurStrategy::kFused || strategy == BlurStrategy::kSplit) {
    if (Status s = checkRange(kBlurStage, "iterations", iterations, 1, 100); !s) return s;
    if (Status s = checkRange(kBlurStage, "tile_width", tile_width, 1, 4096); !s) return s;
    if (Status s = checkRange(kBlurStage, "tile_rows", tile_rows, 1, 4096); !s) return s;
    if (Status s = checkRange(kBlurStage, "segment", segment, 1, 4096); !s) return s;
    if (Status s = checkFilterDim(
            *this, std::string("for the ") + blurStrategyName(strategy) + " strategy");
        !s)
      return s;
    if (Status s = checkWorkgroup(limits, "blur fused", workgroup_size, 1, fusedSharedBytes()); !s)
      return s;
    if (strategy == BlurStrategy::kSplit) {  // the vertical pass (either form): 64 lines
      if (Status s = checkRange(kBlurStage, "prefetch", prefetch, 1, 16); !s) return s;
      return checkWorkgroup(limits, "blur split vertical", splitVerticalLines(limits), 1, 0);
    }
    return {};
  }
  if (strategy == BlurStrategy::kSliding) {
    if (Status s = checkRange(kBlurStage, "iterations", iterations, 1, 100); !s) return s;
    if (Status s = checkRange(kBlurStage, "segment", segment, 1, 4096); !s) return s;
    if (Status s = checkRange(kBlurStage, "prefetch", prefetch, 1, 16); !s) return s;
    if (Status s = checkFilterDim(*this, "for the sliding strategy"); !s) return s;
    return checkWorkgroup(limits, "blur sliding", workgroup_size, 1, 0);
  }
  if (Status s = checkRange(kBlurStage, "tile_width", tile_width, 1, 4096); !s) return s;
  if (Status s = checkRange(kBlurStage, "tile_rows", tile_rows, 1, 256); !s) return s;
  if (Status s = checkRange(kBlurStage, "iterations", iterations, 1, 100); !s) return s;
  if (Status s = checkFilterDim(*this, "for tile_width " + std::to_string(tile_width)); !s)
    return s;
  if (workgroup_size < 1 || tile_width % workgroup_size != 0)
    return fail(ErrorCode::kInvalidArgument, kBlurStage, ": workgroup_size ",
                std::to_string(workgroup_size), " must divide tile_width ",
                std::to_string(tile_width));
  return checkWorkgroup(limits, kBlurStage, workgroup_size, 1, int64_t(tile_rows) * tile_width * 4);
}

namespace {

// The horizontal runs of blur_fused.comp: fused's `segment`; split's as long as it takes to give
// every invocation one run of the tile (`segment` is its vertical pass's): longer runs left most
// invocations idle in that phase.
int64_t tileRun(const BlurParams& p) {
  if (p.strategy != BlurStrategy::kSplit) return p.segment;
  const int64_t wg = p.workgroup_size;
  return std::clamp<int64_t>((int64_t(p.tile_width) * p.tile_rows + wg - 1) / wg, 1, p.tile_width);
}

// blur_fused.comp for fused, or split's horizontal pass (from the image or a packed buffer).
Result<GlProgram> compileTilePass(const BlurParams& p, bool from_buffer) {
  return ShaderLibrary::builtin().compute(
      "blur_fused.comp", ShaderDefines()
                             .set("TW", p.tile_width)
                             .set("TH", p.tile_rows)
                             .set("SEG", tileRun(p))
                             .set("WG_X", p.workgroup_size)
                             .set("FILTER_DIM", p.filter_dim)
                             .set("H_ONLY", p.strategy == BlurStrategy::kSplit ? 1 : 0)
                             .set("OUT_BUFFER", p.buffer_intermediate ? 1 : 0)
                             .set("IN_BUFFER", from_buffer ? 1 : 0));
}

// split's vertical pass through a buffer (blur_columns.comp), into an image or a packed buffer,
// a column or a quad of them per invocation.
Result<GlProgram> compileColumns(const BlurParams& p, int lines, bool to_buffer, bool quads) {
  return ShaderLibrary::builtin().compute("blur_columns.comp",
                                          ShaderDefines()
                                              .set("SEGMENT", p.segment)
                                              .set("WG_X", lines)
                                              .set("FILTER_DIM", p.filter_dim)
                                              .set("OUT_BUFFER", to_buffer ? 1 : 0)
                                              .set("QUAD", quads ? 1 : 0)
                                              .set("PREFETCH", p.prefetch));
}

// split's horizontal pass from a packed buffer, 4 pixels per invocation (blur_rows.comp).
Result<GlProgram> compileRows(const BlurParams& p) {
  return ShaderLibrary::builtin().compute(
      "blur_rows.comp",
      ShaderDefines().set("WG_X", p.workgroup_size).set("FILTER_DIM", p.filter_dim));
}

}  // namespace

Result<Blur> Blur::create(const GlContext& gl, const BlurParams& params) {
  if (Status s = params.validate(gl.limits()); !s) return s.error();
  Blur b;
  b.gl_ = &gl;
  b.params_ = params;
  // The two-pass strategies' end: `b` with its program, which runs each pass (u_flip picks it).
  auto withFlipPass = [](Blur b, Result<GlProgram> program) -> Result<Blur> {
    if (!program) return program.error();
    b.program_ = std::move(program.value());
    b.flip_location_ = glGetUniformLocation(b.program_.get(), "u_flip");
    return b;
  };
  if (params.strategy == BlurStrategy::kFused || params.strategy == BlurStrategy::kSplit) {
    // Per invocation: its share of the tile loads, then of the horizontal and the vertical
    // segments (filter_dim taps + segment outputs each).
    const int64_t wg = params.workgroup_size, halo = params.filter_dim - 1;
    const int64_t seg = tileRun(params);
    const int64_t run = params.filter_dim + seg + 1;
    const int64_t loads = ((params.tile_width + halo) * (params.tile_rows + halo) + wg - 1) / wg;
    const int64_t h =
        ((params.tile_rows + halo) * ((params.tile_width + seg - 1) / seg) + wg - 1) / wg * run;
    const int64_t v =
        (params.tile_width * ((params.tile_rows + seg - 1) / seg) + wg - 1) / wg * run;
    if (Status s = checkLoopIterations(gl, "blur fused", loads + h + v,
                                       "use smaller tiles or more invocations");
        !s)
      return s.error();
    Result<GlProgram> program = compileTilePass(params, false);
    if (!program) return program.error();
    b.program_ = std::move(program.value());
    if (params.strategy == BlurStrategy::kSplit) {
      const int lines = splitVerticalLines(gl.limits());
      if (Status s = checkLoopIterations(gl, "blur split", params.filter_dim + params.segment + 2,
                                         "use a shorter segment");
          !s)
        return s.error();
      if (params.buffer_intermediate) {
        Result<GlProgram> v = compileColumns(params, lines, false, false);
        if (!v) return v.error();
        b.vertical_ = std::move(v.value());
        return b;
      }
      const bool ring = int64_t(lines) * params.filter_dim * 4 <= gl.limits().shared_memory_size;
      Result<GlProgram> v = ShaderLibrary::builtin().compute(
          "blur_sliding.comp", ShaderDefines()
                                   .set("RING", ring ? 1 : 0)
                                   .set("PREFETCH", ring ? params.prefetch : 1)
                                   .set("SEGMENT", params.segment)
                                   .set("WG_X", lines)
                                   .set("FILTER_DIM", params.filter_dim));
      if (!v) return v.error();
      b.vertical_ = std::move(v.value());
      b.flip_location_ = glGetUniformLocation(b.vertical_.get(), "u_flip");
    }
    return b;
  }
  if (params.strategy == BlurStrategy::kStream) {
    // Per invocation: tile_rows + filter_dim - 1 rows of loads, window and columns.
    const int64_t loads = (int64_t(params.workgroup_size) * params.segment + params.filter_dim - 1 +
                           params.workgroup_size - 1) /
                          params.workgroup_size;
    const int64_t per_row = 2 * loads + params.filter_dim + params.segment;
    if (Status s =
            checkLoopIterations(gl, "blur stream", (params.tile_rows + params.filter_dim) * per_row,
                                "use fewer rows per workgroup");
        !s)
      return s.error();
    Result<GlProgram> program = ShaderLibrary::builtin().compute(
        "blur_stream.comp", ShaderDefines()
                                .set("WG_X", params.workgroup_size)
                                .set("COLS", params.segment)
                                .set("TH", params.tile_rows)
                                .set("FILTER_DIM", params.filter_dim));
    if (!program) return program.error();
    b.program_ = std::move(program.value());
    return b;
  }
  if (params.strategy == BlurStrategy::kSliding) {
    // Per invocation: the window's filter_dim taps, then segment outputs.
    if (Status s = checkLoopIterations(gl, "blur sliding", params.filter_dim + params.segment + 2,
                                       "use a shorter segment");
        !s)
      return s.error();
    // The ring of the window's texels in shared memory where it fits (blur_sliding.comp).
    const bool ring =
        int64_t(params.workgroup_size) * params.filter_dim * 4 <= gl.limits().shared_memory_size;
    return withFlipPass(std::move(b),
                        ShaderLibrary::builtin().compute(
                            "blur_sliding.comp", ShaderDefines()
                                                     .set("RING", ring ? 1 : 0)
                                                     .set("PREFETCH", ring ? params.prefetch : 1)
                                                     .set("SEGMENT", params.segment)
                                                     .set("WG_X", params.workgroup_size)
                                                     .set("FILTER_DIM", params.filter_dim)));
  }
  // Per invocation: tile_rows x cols loads, then tile_rows x cols outputs of filter_dim taps.
  const int64_t cols = params.tile_width / params.workgroup_size;
  if (Status s = checkLoopIterations(gl, kBlurStage,
                                     params.tile_rows * (cols + 1) * (params.filter_dim + 2),
                                     "use more invocations per tile");
      !s)
    return s.error();
  return withFlipPass(std::move(b), ShaderLibrary::builtin().compute(
                                        "blur.comp", ShaderDefines()
                                                         .set("TILE_W", params.tile_width)
                                                         .set("ROWS", params.tile_rows)
                                                         .set("WG_X", params.workgroup_size)
                                                         .set("FILTER_DIM", params.filter_dim)));
}

namespace {

// One dispatch of `program`, gx x gy workgroups, from the image `in` into the image `out`. The
// previous pass's stores must land before this one fetches them, and its fetches of `out` (two
// passes back) must finish before this one overwrites it.
Status dispatchImageToImage(const GlContext& gl, GLuint program, GLuint in, GLuint out, int64_t gx,
                            int64_t gy) {
  if (Status s = checkDispatch(gl.limits(), kBlurStage, gx, gy); !s) return s;
  bindSourceImage(program, in, 0);
  glBindImageTexture(0, out, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                  GL_TEXTURE_UPDATE_BARRIER_BIT);
  glDispatchCompute(GLuint(gx), GLuint(gy), 1);
  return {};
}

}  // namespace

Status Blur::pass(GLuint in, GLuint out, int width, int height, bool flip) {
  int pass_w = flip ? height : width, pass_h = flip ? width : height;
  int64_t gx = 0, gy = 0;
  if (params_.strategy == BlurStrategy::kSliding) {  // x: lines, y: segments along a line
    gx = (pass_h + params_.workgroup_size - 1) / params_.workgroup_size;
    gy = (pass_w + params_.segment - 1) / params_.segment;
  } else {
    gx = (pass_w + params_.blockDim() - 1) / params_.blockDim();
    gy = (pass_h + params_.tile_rows - 1) / params_.tile_rows;
  }
  glUniform1i(flip_location_, flip ? 1 : 0);
  return dispatchImageToImage(*gl_, program_.get(), in, out, gx, gy);
}

Status Blur::fused(GLuint in, GLuint out, int width, int height) {
  int64_t gx = (width + params_.tile_width - 1) / params_.tile_width;
  int64_t gy = (height + params_.tile_rows - 1) / params_.tile_rows;
  return dispatchImageToImage(*gl_, program_.get(), in, out, gx, gy);
}

Result<GLuint> Blur::horizontalProgram(bool from_buffer) {
  if (!from_buffer) return program_.get();
  return builtOnce(horizontal_from_buffer_, [&] { return compileTilePass(params_, true); });
}

Result<GLuint> Blur::columnsProgram(bool to_buffer, bool quads) {
  if (!to_buffer && !quads) return vertical_.get();
  return builtOnce(columns_[to_buffer][quads], [&] {
    return compileColumns(params_, splitVerticalLines(gl_->limits()), to_buffer, quads);
  });
}

Result<GLuint> Blur::rowsProgram() {
  return builtOnce(rows_pass_, [&] { return compileRows(params_); });
}

Status Blur::splitThroughBuffer(End in, End out) {
  const int w = in.width, h = in.height;
  const size_t words = size_t(w) * size_t(h);
  if (rows_words_ != words) {
    Result<GlBuffer> rows = makeStorageBuffer(words, "blur intermediate buffer");
    if (!rows) return rows.error();
    rows_ = std::move(rows.value());
    rows_words_ = words;
  }
  const int lines = splitVerticalLines(gl_->limits());
  const bool quads = params_.column_quads && w % 4 == 0;
  const int64_t units = quads ? w / 4 : w;  // the vertical pass's columns
  // The horizontal pass: blur_rows.comp where the source is a packed buffer of a width that is
  // a multiple of 4, else the tile (from an image, each of its texels would be a fetch of its
  // own: three times the tile's time on an H200, bench/results/h200-stages.md).
  const bool rows_from_buffer = params_.row_quads && w % 4 == 0;
  const int64_t hx = (w + params_.tile_width - 1) / params_.tile_width;
  const int64_t hy = (h + params_.tile_rows - 1) / params_.tile_rows;
  const int64_t rx = (w / 4 + params_.workgroup_size - 1) / params_.workgroup_size;
  const int64_t vx = (units + lines - 1) / lines, vy = (h + params_.segment - 1) / params_.segment;
  if (Status s = checkDispatch(gl_->limits(), kBlurStage, hx, hy); !s) return s;
  if (rows_from_buffer)
    if (Status s = checkDispatch(gl_->limits(), kBlurStage, rx, h); !s) return s;
  if (Status s = checkDispatch(gl_->limits(), kBlurStage, vx, vy); !s) return s;
  Result<GLuint> columns = columnsProgram(out.buffer != 0, quads);
  if (!columns) return columns.error();
  for (int i = 0; i < params_.iterations; ++i) {
    const End& src = i == 0 ? in : out;  // later iterations blur the last one's result
    const bool rows = rows_from_buffer && src.buffer != 0;
    Result<GLuint> horizontal = rows ? rowsProgram() : horizontalProgram(src.buffer != 0);
    if (!horizontal) return horizontal.error();
    glUseProgram(horizontal.value());
    if (src.buffer) {
      glUniform2i(glGetUniformLocation(horizontal.value(), "u_size"), w, h);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, src.buffer);
    } else {
      bindSourceImage(horizontal.value(), src.texture, 0);
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, rows_.get());
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                    GL_TEXTURE_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    if (rows)
      glDispatchCompute(GLuint(rx), GLuint(h), 1);
    else
      glDispatchCompute(GLuint(hx), GLuint(hy), 1);
    glUseProgram(columns.value());
    glUniform2i(glGetUniformLocation(columns.value(), "u_size"), w, h);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, rows_.get());
    if (out.buffer) {
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out.buffer);
    } else {
      // The RGBA8 texture as raw 32-bit texels: GLES 3.1 allows any format of its size class.
      glBindImageTexture(0, out.texture, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32UI);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                    GL_TEXTURE_FETCH_BARRIER_BIT);
    glDispatchCompute(GLuint(vx), GLuint(vy), 1);
  }
  glMemoryBarrier(out.buffer ? GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT
                             : kImageWrittenBarrier);
  return checkGl("blur dispatch (split through a buffer)");
}

Status Blur::checkPackedForm(int in_w, int in_h, int out_w, int out_h, bool same) const {
  if (params_.strategy != BlurStrategy::kSplit || !params_.buffer_intermediate)
    return fail(ErrorCode::kInvalidArgument, kBlurStage,
                ": a packed buffer in or out needs the split strategy through a buffer "
                "(buffer_intermediate), not ",
                blurStrategyName(params_.strategy),
                params_.strategy == BlurStrategy::kSplit ? " through an image" : "");
  if (same)
    return fail(ErrorCode::kInvalidArgument, kBlurStage, ": input and output are the same buffer");
  if (in_w != out_w || in_h != out_h)
    return fail(ErrorCode::kInvalidArgument, kBlurStage, ": output is ", std::to_string(out_w), "x",
                std::to_string(out_h), ", input ", std::to_string(in_w), "x", std::to_string(in_h));
  return {};
}

Status Blur::run(const GpuImage& in, PackedRgbaBuffer& out) {
  if (Status s = checkPackedForm(in.width(), in.height(), out.width(), out.height(), false); !s)
    return s;
  return splitThroughBuffer({in.texture(), 0, in.width(), in.height()},
                            {0, out.buffer(), out.width(), out.height()});
}

Status Blur::run(const PackedRgbaBuffer& in, PackedRgbaBuffer& out) {
  if (Status s = checkPackedForm(in.width(), in.height(), out.width(), out.height(),
                                 in.buffer() == out.buffer());
      !s)
    return s;
  return splitThroughBuffer({0, in.buffer(), in.width(), in.height()},
                            {0, out.buffer(), out.width(), out.height()});
}

Status Blur::stream(GLuint in, GLuint out, int width, int height) {
  const int64_t columns = int64_t(params_.workgroup_size) * params_.segment;
  int64_t gx = (width + columns - 1) / columns;
  int64_t gy = (height + params_.tile_rows - 1) / params_.tile_rows;
  return dispatchImageToImage(*gl_, program_.get(), in, out, gx, gy);
}

Status Blur::run(const GpuImage& in, GpuImage& out) {
  if (in.texture() == out.texture())
    return fail(ErrorCode::kInvalidArgument, kBlurStage, ": input and output are the same image");
  if (in.width() != out.width() || in.height() != out.height())
    return fail(ErrorCode::kInvalidArgument, kBlurStage, ": output is ",
                std::to_string(out.width()), "x", std::to_string(out.height()), ", input ",
                std::to_string(in.width()), "x", std::to_string(in.height()));
  // Through a buffer: no intermediate image (the buffer is its own).
  if (params_.strategy == BlurStrategy::kSplit && params_.buffer_intermediate)
    return splitThroughBuffer({in.texture(), 0, in.width(), in.height()},
                              {out.texture(), 0, out.width(), out.height()});
  if (temp_.width() != in.width() || temp_.height() != in.height()) {
    Result<GpuImage> temp = GpuImage::create(in.width(), in.height());
    if (!temp) return temp.error();
    temp_ = std::move(temp.value());
  }
  glUseProgram(program_.get());
  if (params_.strategy == BlurStrategy::kSplit) {
    // Per iteration: the tiled horizontal pass into temp, the sliding vertical pass into out.
    const int lines = splitVerticalLines(gl_->limits());
    for (int i = 0; i < params_.iterations; ++i) {
      glUseProgram(program_.get());
      if (Status s = fused(i == 0 ? in.texture() : out.texture(), temp_.texture(), in.width(),
                           in.height());
          !s)
        return s;
      glUseProgram(vertical_.get());
      const int64_t gx = (in.width() + lines - 1) / lines;
      const int64_t gy = (in.height() + params_.segment - 1) / params_.segment;
      if (Status s = checkDispatch(gl_->limits(), kBlurStage, gx, gy); !s) return s;
      bindSourceImage(vertical_.get(), temp_.texture(), 0);
      glBindImageTexture(0, out.texture(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
      glUniform1i(flip_location_, 1);
      glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                      GL_TEXTURE_UPDATE_BARRIER_BIT);
      glDispatchCompute(GLuint(gx), GLuint(gy), 1);
    }
    glMemoryBarrier(kImageWrittenBarrier);
    return checkGl("blur dispatch");
  }
  if (params_.strategy == BlurStrategy::kFused || params_.strategy == BlurStrategy::kStream) {
    // One dispatch per iteration, alternating so that the last one writes `out`.
    GLuint src = in.texture();
    for (int i = 0; i < params_.iterations; ++i) {
      GLuint dst = (params_.iterations - 1 - i) % 2 == 0 ? out.texture() : temp_.texture();
      Status s = params_.strategy == BlurStrategy::kStream
                     ? stream(src, dst, in.width(), in.height())
                     : fused(src, dst, in.width(), in.height());
      if (!s) return s;
      src = dst;
    }
    glMemoryBarrier(kImageWrittenBarrier);
    return checkGl("blur dispatch");
  }
  for (int i = 0; i < params_.iterations; ++i) {
    // Ping-pong: H reads the source (then the last V result) into temp, V reads temp into out.
    GLuint h_in = i == 0 ? in.texture() : out.texture();
    if (Status s = pass(h_in, temp_.texture(), in.width(), in.height(), false); !s) return s;
    if (Status s = pass(temp_.texture(), out.texture(), in.width(), in.height(), true); !s)
      return s;
  }
  glMemoryBarrier(kImageWrittenBarrier);
  return checkGl("blur dispatch");
}

}  // namespace esf
