#include "core/stages/block_detect.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "core/stages/stage_limits.hpp"
#include "core/stats/blockdetect.hpp"
#include "esframe/base/sizes.hpp"
#include "platform/shader_library.hpp"

namespace esf {
namespace {
constexpr const char* kBlockStage = "blockdetect";

Result<GlProgram> compileForm(const BlockDetectParams& params, bool packed) {
  return ShaderLibrary::builtin().compute("blockdetect.comp",
                                          ShaderDefines()
                                              .set("WG", params.invocations)
                                              .set("RUN", params.run_length)
                                              .set("PACKED_SOURCE", packed ? 1 : 0));
}
}  // namespace

BlockDetectParams BlockDetectParams::defaultsFor(const GlContext& gl) {
  const ComputeLimits& limits = gl.limits();
  BlockDetectParams p;
  p.invocations = std::max(1, std::min({64, kV3dMaxInvocations, limits.work_group_invocations,
                                        int(limits.work_group_size[0])}));
  return p;
}

Status BlockDetectParams::validate(const ComputeLimits& limits) const {
  if (Status s = checkRange(kBlockStage, "invocations", invocations, 1, 1024); !s) return s;
  if (Status s = checkRange(kBlockStage, "run_length", run_length, 1, 1024); !s) return s;
  return checkWorkgroup(limits, kBlockStage, invocations, 1, 0);
}

Result<BlockDetect> BlockDetect::create(const GlContext& gl, const BlockDetectParams& params) {
  if (Status s = params.validate(gl.limits()); !s) return s.error();
  BlockDetect out(gl, params);
  Result<GlProgram> program = compileForm(params, false);
  if (!program) return program.error();
  out.texture_program_ = std::move(program.value());
  return out;
}

Status BlockDetect::preparePacked() {
  Result<GLuint> program = builtOnce(packed_program_, [&] { return compileForm(params_, true); });
  if (!program) return program.error();
  return Status::success();
}

Status BlockDetect::ensureSums(size_t words) {
  if (words <= sums_capacity_) return Status::success();
  Result<GlBuffer> made = makeStorageBuffer(words, "blockdetect slices");
  if (!made) return made.error();
  sums_ = std::move(made.value());
  sums_capacity_ = words;
  return Status::success();
}

Status BlockDetect::beginFrame(int width, int height) {
  if (width < 1 || height < 1)
    return fail(ErrorCode::kInternal, kBlockStage, ": no plane 0 (", std::to_string(width), "x",
                std::to_string(height), ")");
  slices_.clear();
  slice_words_ = 0;
  began_ = true;
  // Slices for four planes (G, B, R, A) of plane 0's size: no frame has more or larger ones.
  const size_t slices = 4 * (size_t(width) + size_t(height));
  if (width == width_ && height == height_) return ensureSums(slices);
  const size_t words = saturatingSize(width, height);  // within the frame's own size
  Result<GlBuffer> made = makeStorageBuffer(words, "blockdetect gradients");
  if (!made) return made.error();
  gradients_ = std::move(made.value());
  width_ = width, height_ = height;
  if (Status s = fillBuffer(gradients_.get(), words, 0, "blockdetect gradients"); !s) {
    width_ = height_ = -1;  // not zeroed: the next frame tries again
    return s;
  }
  return ensureSums(slices);
}

Status BlockDetect::runPlane(const BlockDetectPlane& plane) {
  const int w = plane.width, h = plane.height;
  if (!began_ || w < 1 || h < 1 || (!plane.texture && !plane.packed))
    return fail(ErrorCode::kInternal, kBlockStage, ": no plane (", std::to_string(w), "x",
                std::to_string(h), began_ ? ")" : ", no frame begun)");
  if (int64_t(w) * h > int64_t(width_) * height_)
    return fail(ErrorCode::kInternal, kBlockStage, ": a ", std::to_string(w), "x",
                std::to_string(h), " plane past plane 0's ", std::to_string(width_), "x",
                std::to_string(height_));
  // An invocation's loop runs over a column's rows or a row's columns (or a run of them).
  const int64_t most = std::max({int64_t(w), int64_t(h), int64_t(params_.run_length)});
  if (Status s = checkLoopIterations(*gl_, kBlockStage, most, "a smaller frame"); !s) return s;
  // Each pass's workgroups (x, y): the runs of each row, the columns, the columns by their runs
  // of rows, the rows and columns.
  const int64_t wg = params_.invocations, run = params_.run_length;
  auto groups = [&](int64_t invocations) { return (invocations + wg - 1) / wg; };
  const int64_t row_runs = (std::max(0, w - 7) + run - 1) / run;
  const int64_t column_runs = (std::max(0, h - 7) + run - 1) / run;
  const int64_t passes[4][2] = {{groups(row_runs), h - 1},
                                {groups(w), 1},
                                {groups(w), column_runs},
                                {groups(std::max(w, h)), 1}};
  for (const auto& g : passes) {
    if (Status s = checkDispatch(gl_->limits(), kBlockStage, g[0], g[1]); !s) return s;
  }
  const size_t slice = slice_words_, words = slice + size_t(w) + size_t(h);
  if (words > sums_capacity_)
    return fail(ErrorCode::kInternal, kBlockStage, ": more planes than a frame has");
  GlProgram& form = plane.packed ? packed_program_ : texture_program_;
  Result<GLuint> program = builtOnce(form, [&] { return compileForm(params_, plane.packed != 0); });
  if (!program) return program.error();
  const GLuint p = *program;
  glUseProgram(p);
  if (plane.packed) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, plane.packed);
  } else {
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, plane.texture);
    glUniform1i(glGetUniformLocation(p, "u_plane"), 0);
    glUniform2i(glGetUniformLocation(p, "u_texel"), plane.texel_step, plane.texel_offset);
  }
  glUniform2i(glGetUniformLocation(p, "u_size"), w, h);
  glUniform1i(glGetUniformLocation(p, "u_channel"), plane.channel);
  glUniform1ui(glGetUniformLocation(p, "u_slice"), GLuint(slice));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, gradients_.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, sums_.get());
  // The packed source and the gradients were written by earlier shaders.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  for (int pass = 0; pass < 4; ++pass) {
    if (passes[pass][0] == 0 || passes[pass][1] == 0) continue;  // no gradient of this kind
    glUniform1i(glGetUniformLocation(p, "u_pass"), pass);
    glDispatchCompute(GLuint(passes[pass][0]), GLuint(passes[pass][1]), 1);
    glMemoryBarrier(pass < 3 ? GLbitfield(GL_SHADER_STORAGE_BARRIER_BIT) : kStorageWrittenBarrier);
  }
  slices_.push_back({w, h});
  slice_words_ = words;
  return checkGl("blockdetect dispatch");
}

Result<std::vector<float>> BlockDetect::planeFiguresOf(std::span<const uint32_t> words,
                                                       const BlockDetectConfig& config) const {
  if (words.size() != slice_words_)
    return fail(ErrorCode::kInternal, kBlockStage, ": ", std::to_string(words.size()),
                " words are not the frame's ", std::to_string(slice_words_));
  std::vector<float> sums(words.size());
  if (!words.empty()) std::memcpy(sums.data(), words.data(), words.size() * 4);
  std::vector<float> figures;
  size_t at = 0;
  for (const Slice& s : slices_) {
    const float* row = sums.data() + at;
    figures.push_back(blockinessOfSums(config, row, 1, s.width, row + s.width, 1, s.height));
    at += size_t(s.width) + size_t(s.height);
  }
  return figures;
}

Result<std::vector<float>> BlockDetect::readPlaneFigures(const BlockDetectConfig& config) const {
  if (slice_words_ == 0) return planeFiguresOf({}, config);
  Result<std::vector<uint32_t>> words =
      readWordsByCopy(sums_.get(), slice_words_, "blockdetect slices");
  if (!words) return words.error();
  return planeFiguresOf(words.value(), config);
}

Status BlockDetect::poison(uint32_t pattern) {
  if (!sums_capacity_) return Status::success();
  return fillBuffer(sums_.get(), sums_capacity_, pattern, "blockdetect poison");
}

}  // namespace esf
