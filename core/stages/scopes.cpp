#include "core/stages/scopes.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "base/pixel_format.hpp"
#include "core/stages/stage_gl.hpp"
#include "core/stages/stage_limits.hpp"
#include "platform/shader_library.hpp"
#include "platform/workgroup_shape.hpp"

namespace esf {
namespace {
constexpr const char* kScopesStage = "scopes";
constexpr size_t kLevels = 256;
constexpr size_t kVectorscopeWords = 256 * 256;

// Shared words a tile column needs: 256 for the waveform, 3 * 256 for the parade.
int64_t planesOf(const ScopeOptions& s) {
  return (s.waveform ? 1 : 0) + (s.parade ? 3 : 0);
}
}  // namespace

ScopesParams ScopesParams::defaultsFor(const GlContext& gl, const ScopeOptions& scopes) {
  const ComputeLimits& limits = gl.limits();
  ScopesParams p;
  // Each invocation keeps a run (word, length) per plane: within the invocations that keep the
  // whole register file (Midgard: 64).
  const int invocations = std::min(kV3dMaxInvocations, int(registerHeavyInvocations(limits)));
  const int64_t column_bytes = planesOf(scopes) * int64_t(kLevels) * 4;
  p.tile_columns = 16;
  while (p.tile_columns > 1 &&
         (p.tile_columns * column_bytes > limits.shared_memory_size ||
          p.tile_columns > limits.work_group_size[0] || p.tile_columns > invocations))
    p.tile_columns /= 2;
  p.workgroup_rows =
      std::max(1, std::min(invocations / p.tile_columns, int(limits.work_group_size[1])));
  p.rows_per_workgroup = p.workgroup_rows * 16;
  return p;
}

Status ScopesParams::validate(const ComputeLimits& limits, const ScopeOptions& scopes) const {
  if (tile_columns < 1 || tile_columns > 16 || (tile_columns & (tile_columns - 1)))
    return fail(ErrorCode::kInvalidArgument, kScopesStage,
                ": tile_columns must be a power of two in [1, 16], got ",
                std::to_string(tile_columns));
  if (Status s = checkRange(kScopesStage, "workgroup_rows", workgroup_rows, 1, 1024); !s) return s;
  if (rows_per_workgroup < workgroup_rows || rows_per_workgroup % workgroup_rows)
    return fail(ErrorCode::kInvalidArgument, kScopesStage,
                ": rows_per_workgroup must be a multiple of workgroup_rows (",
                std::to_string(workgroup_rows), "), got ", std::to_string(rows_per_workgroup));
  return checkWorkgroup(limits, kScopesStage, tile_columns, workgroup_rows,
                        int64_t(tile_columns) * planesOf(scopes) * int64_t(kLevels) * 4);
}

ChromaLayout chromaLayoutOf(PixelFormat yuv_format) {
  const PixelFormatInfo& info = pixelFormatInfo(yuv_format);
  const YuvPlaneLayout planes = yuvPlaneLayout(yuv_format);
  ChromaLayout l;
  l.layout = ChromaPlanes::Layout(planes.layout);
  l.swap_uv = planes.swap_uv;
  l.hsub = info.chroma_horizontal_subsampling, l.vsub = info.chroma_vertical_subsampling;
  return l;
}

ChromaPlanes chromaPlanesOf(const ImportedFrame& imported, const ChromaLayout& layout) {
  ChromaPlanes planes;
  for (size_t i = 0; i < 3; ++i) planes.planes[i] = imported.planes[i];
  planes.layout = layout.layout;
  planes.swap_uv = layout.swap_uv;
  const int hsub = layout.hsub, vsub = layout.vsub;
  planes.width = (imported.width + hsub - 1) / hsub;
  planes.height = (imported.height + vsub - 1) / vsub;
  planes.hsub = hsub, planes.vsub = vsub;
  planes.frame_width = imported.width, planes.frame_height = imported.height;
  return planes;
}

Result<Scopes> Scopes::create(const GlContext& gl, const ScopesParams& params,
                              const ScopeOptions& scopes, ScopesInput input, bool signalstats) {
  if (!scopes.any()) return fail(ErrorCode::kInvalidArgument, kScopesStage, ": no scope asked for");
  if (input == ScopesInput::kChromaPlanes && (scopes.waveform || scopes.parade))
    return fail(ErrorCode::kInvalidArgument, kScopesStage,
                ": chroma planes have only a vectorscope, not a waveform or parade");
  if (signalstats && (input != ScopesInput::kChromaPlanes || !scopes.vectorscope))
    return fail(ErrorCode::kInvalidArgument, kScopesStage,
                ": signalstats' counts are the chroma planes' (with their vectorscope)");
  if (Status s = params.validate(gl.limits(), scopes); !s) return s.error();
  // The busiest invocation's loops: its rows, then clearing and adding the shared counts.
  const int64_t shared_words = int64_t(params.tile_columns) * planesOf(scopes) * int64_t(kLevels);
  const int64_t invocations = int64_t(params.tile_columns) * params.workgroup_rows;
  const int64_t iterations = params.rows_per_workgroup / params.workgroup_rows +
                             2 * ((shared_words + invocations - 1) / invocations);
  if (Status s = checkLoopIterations(gl, kScopesStage, iterations,
                                     "use fewer rows_per_workgroup or a smaller tile");
      !s)
    return s.error();
  Scopes out(gl, params, scopes, input, signalstats);
  if (Result<GLuint> built = builtOnce(out.program_, [&] { return out.build(false); }); !built)
    return built.error();
  return out;
}

Result<GlProgram> Scopes::build(bool luma_image) const {
  return ShaderLibrary::builtin().compute(
      "scopes.comp", ShaderDefines()
                         .set("WAVEFORM", scopes_.waveform ? 1 : 0)
                         .set("PARADE", scopes_.parade ? 1 : 0)
                         .set("VECTORSCOPE", scopes_.vectorscope ? 1 : 0)
                         .set("LUMA_IMAGE", luma_image ? 1 : 0)
                         .set("CHROMA_PLANES", input_ == ScopesInput::kChromaPlanes ? 1 : 0)
                         .set("SOURCE_BUFFER", input_ == ScopesInput::kPackedBuffer ? 1 : 0)
                         .set("SIGNALSTATS", signalstats_ ? 1 : 0)
                         .set("TILE_W", params_.tile_columns)
                         .set("WG_Y", params_.workgroup_rows)
                         .set("ROWS", params_.rows_per_workgroup));
}

Status Scopes::clearCounts(size_t words) {
  if (words != words_) {
    Result<GlBuffer> made = makeStorageBuffer(words, "scopes counts");
    if (!made) return made.error();
    Result<GlBuffer> zeros = makeStorageBuffer(words, "scopes zeros");
    if (!zeros) return zeros.error();
    if (Status s = fillBuffer(zeros.value().get(), words, 0, "scopes zeros"); !s) return s;
    counts_ = std::move(made.value());
    zeros_ = std::move(zeros.value());
    words_ = words;
  }
  // Zeroed by a copy on the GPU: uploading the zeros from the host each run moved the counts'
  // size (megabytes with the waveform and parade of a wide frame) across the bus every frame.
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // behind the last run's atomics
  copyWords(zeros_.get(), 0, counts_.get(), 0, words_);
  return checkGl("scopes counts");
}

Status Scopes::run(const GpuImage& image, const GpuImage* luma, int columns) {
  if (input_ != ScopesInput::kImage)
    return fail(ErrorCode::kInternal, kScopesStage, ": an image given to a stage made for ",
                input_ == ScopesInput::kPackedBuffer ? "packed buffers" : "chroma planes");
  if (luma && (luma->width() != image.width() || luma->height() != image.height()))
    return fail(ErrorCode::kInternal, kScopesStage, ": the luma image's size differs");
  return runPixels(image.width(), image.height(), luma, columns, [&](GLuint p) {
    bindSourceImage(p, image.texture(), 0);
    if (luma) {
      glActiveTexture(GL_TEXTURE1);
      glBindTexture(GL_TEXTURE_2D, luma->texture());
      glUniform1i(glGetUniformLocation(p, "u_luma"), 1);
      glActiveTexture(GL_TEXTURE0);
    }
  });
}

Status Scopes::run(const PackedRgbaBuffer& packed, const PackedRgbaBuffer* luma, int columns) {
  if (input_ != ScopesInput::kPackedBuffer)
    return fail(ErrorCode::kInternal, kScopesStage, ": a packed buffer given to a stage made for ",
                input_ == ScopesInput::kImage ? "images" : "chroma planes");
  if (luma && (luma->width() != packed.width() || luma->height() != packed.height()))
    return fail(ErrorCode::kInternal, kScopesStage, ": the luma buffer's size differs");
  return runPixels(packed.width(), packed.height(), luma, columns, [&](GLuint p) {
    bindSourceImage(p, 0, packed.buffer());
    if (luma) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, luma->buffer());
  });
}

template <typename Bind>
Status Scopes::runPixels(int w, int h, bool luma, int columns, const Bind& bind) {
  if (columns < 1 || columns > w)
    return fail(ErrorCode::kInvalidArgument, kScopesStage, ": columns must be in [1, ",
                std::to_string(w), "], got ", std::to_string(columns));
  if (uint64_t(w) * uint64_t(columns) > 0xFFFFFFFFull)  // the shader's column arithmetic
    return fail(ErrorCode::kUnsupported, kScopesStage, ": width ", std::to_string(w), " times ",
                std::to_string(columns), " columns exceeds 32 bits");
  if (luma) {
    if (Result<GLuint> built = builtOnce(luma_program_, [&] { return build(true); }); !built)
      return built.error();
  }
  const size_t column_words = size_t(columns) * kLevels;
  const size_t parade_at = scopes_.waveform ? column_words : 0;
  const size_t vectorscope_at = parade_at + (scopes_.parade ? 3 * column_words : 0);
  const size_t words = vectorscope_at + (scopes_.vectorscope ? kVectorscopeWords : 0);
  const int64_t groups_x = (w + params_.tile_columns - 1) / params_.tile_columns;
  const int64_t groups_y = (h + params_.rows_per_workgroup - 1) / params_.rows_per_workgroup;
  if (Status s = checkDispatch(gl_->limits(), kScopesStage, groups_x, groups_y); !s) return s;
  if (Status s = clearCounts(words); !s) return s;
  const GLuint p = luma ? luma_program_.get() : program_.get();
  glUseProgram(p);
  bind(p);
  glUniform2i(glGetUniformLocation(p, "u_size"), w, h);
  glUniform1ui(glGetUniformLocation(p, "u_columns"), GLuint(columns));
  glUniform1ui(glGetUniformLocation(p, "u_parade_at"), GLuint(parade_at));
  glUniform1ui(glGetUniformLocation(p, "u_vectorscope_at"), GLuint(vectorscope_at));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, counts_.get());
  glDispatchCompute(GLuint(groups_x), GLuint(groups_y), 1);
  glMemoryBarrier(kStorageWrittenBarrier);
  columns_ = columns;
  pixels_ = uint64_t(w) * uint64_t(h);
  return checkGl("scopes dispatch");
}

Status Scopes::run(const ChromaPlanes& planes) {
  if (input_ != ScopesInput::kChromaPlanes)
    return fail(ErrorCode::kInternal, kScopesStage, ": chroma planes given to the image stage");
  const int w = planes.width, h = planes.height;
  if (w < 1 || h < 1)
    return fail(ErrorCode::kInternal, kScopesStage, ": no chroma samples (", std::to_string(w), "x",
                std::to_string(h), ")");
  const int64_t groups_x = (w + params_.tile_columns - 1) / params_.tile_columns;
  const int64_t groups_y = (h + params_.rows_per_workgroup - 1) / params_.rows_per_workgroup;
  if (Status s = checkDispatch(gl_->limits(), kScopesStage, groups_x, groups_y); !s) return s;
  if (Status s = clearCounts(kVectorscopeWords); !s) return s;
  const GLuint p = program_.get();
  glUseProgram(p);
  const char* names[3] = {"u_plane0", "u_plane1", "u_plane2"};
  for (int i = 0; i < 3; ++i) {
    glActiveTexture(GLenum(GL_TEXTURE0 + i));
    glBindTexture(GL_TEXTURE_2D, planes.planes[i]);
    glUniform1i(glGetUniformLocation(p, names[i]), i);
  }
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(glGetUniformLocation(p, "u_layout"), planes.layout);
  glUniform1i(glGetUniformLocation(p, "u_swap_uv"), planes.swap_uv ? 1 : 0);
  glUniform2i(glGetUniformLocation(p, "u_size"), w, h);
  glUniform1ui(glGetUniformLocation(p, "u_vectorscope_at"), 0u);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, counts_.get());
  if (signalstats_) {
    if (Status s = bindSignalstats(p, planes, size_t(groups_x) * size_t(groups_y)); !s) return s;
  }
  glDispatchCompute(GLuint(groups_x), GLuint(groups_y), 1);
  glMemoryBarrier(kStorageWrittenBarrier);
  columns_ = 1;
  pixels_ = uint64_t(w) * uint64_t(h);
  return checkGl("scopes dispatch (chroma planes)");
}

Result<ScopeCounts> Scopes::read() const {
  if (!columns_) return fail(ErrorCode::kInternal, kScopesStage, ": read() before a run");
  // counts_ is never mapped (scopes.hpp).
  Result<std::vector<uint32_t>> words = readWordsByCopy(counts_.get(), words_, "scopes read-back");
  if (!words) return words.error();
  return countsOf(words.value());
}

Result<ScopeCounts> Scopes::countsOf(std::span<const uint32_t> w) const {
  if (!columns_) return fail(ErrorCode::kInternal, kScopesStage, ": read() before a run");
  if (w.size() != words_)
    return fail(ErrorCode::kInternal, kScopesStage, ": ", std::to_string(w.size()),
                " words read back, not ", std::to_string(words_));
  const size_t column_words = size_t(columns_) * kLevels;
  ScopeCounts out;
  out.columns = columns_;
  auto at = w.begin();
  if (scopes_.waveform) {
    out.waveform.assign(at, at + ptrdiff_t(column_words));
    at += ptrdiff_t(column_words);
  }
  if (scopes_.parade) {
    out.parade.assign(at, at + ptrdiff_t(3 * column_words));
    at += ptrdiff_t(3 * column_words);
  }
  if (scopes_.vectorscope) {
    out.vectorscope.assign(at, at + ptrdiff_t(kVectorscopeWords));
    out.vectorscope_samples = pixels_;
  }
  return out;
}

Status Scopes::bindSignalstats(GLuint program, const ChromaPlanes& planes, size_t groups) {
  const int w = planes.width, h = planes.height;
  const size_t samples = size_t(w) * size_t(h);  // within a frame's bytes
  has_previous_ = w == previous_width_ && h == previous_height_;
  if (samples != previous_words_) {
    Result<GlBuffer> made = makeStorageBuffer(samples, "signalstats previous chroma");
    if (!made) return made.error();
    previous_ = std::move(made.value());
    previous_words_ = samples;
  }
  if (3 * groups != partial_words_) {
    Result<GlBuffer> made = makeStorageBuffer(3 * groups, "signalstats sums");
    if (!made) return made.error();
    partials_ = std::move(made.value());
    partial_words_ = 3 * groups;
  }
  glUniform2i(glGetUniformLocation(program, "u_frame_size"), planes.frame_width,
              planes.frame_height);
  glUniform2i(glGetUniformLocation(program, "u_subsampling"), planes.hsub, planes.vsub);
  glUniform1i(glGetUniformLocation(program, "u_has_previous"), has_previous_ ? 1 : 0);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, previous_.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, partials_.get());
  previous_width_ = w;
  previous_height_ = h;
  return Status::success();
}

Result<ChromaSignalstatsCounts> Scopes::readSignalstats() const {
  if (!signalstats_ || !partial_words_)
    return fail(ErrorCode::kInternal, kScopesStage, ": no signalstats counts to read");
  Result<std::vector<uint32_t>> words =
      readWords(partials_.get(), partial_words_, "signalstats read-back");
  if (!words) return words.error();
  return signalstatsOf(words.value());
}

Result<ChromaSignalstatsCounts> Scopes::signalstatsOf(std::span<const uint32_t> words) const {
  if (!signalstats_ || !partial_words_ || words.size() != partial_words_)
    return fail(ErrorCode::kInternal, kScopesStage, ": no signalstats counts to read");
  ChromaSignalstatsCounts out;
  out.has_previous = has_previous_;
  for (size_t i = 0; i < partial_words_; i += 3) {
    out.cb_difference += words[i];
    out.cr_difference += words[i + 1];
    out.out_of_range_pixels += words[i + 2];
  }
  return out;
}

Status Scopes::poison(uint32_t pattern) {
  if (!words_) return Status::success();
  return fillBuffer(counts_.get(), words_, pattern, "scopes poison");
}

}  // namespace esf
