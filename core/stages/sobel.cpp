#include "core/stages/sobel.hpp"

#include <string>

#include "core/stages/stage_gl.hpp"
#include "core/stages/stage_limits.hpp"
#include "platform/shader_library.hpp"
#include "platform/workgroup_shape.hpp"

namespace esf {
namespace {
constexpr const char* kSobelStage = "sobel";
constexpr size_t kSobelPartialWords = 7;
constexpr size_t kSobelRegionWords = 2;  // sum m, 64 bits
}  // namespace

SobelParams SobelParams::defaultsFor(const GlContext& gl, bool regions) {
  SobelParams p;
  // The largest of 4, 2, 1 rows of invocations that the driver's workgroup takes (128: 2).
  // With regions each invocation keeps its cell's and rectangles' sums too: within the
  // invocations that keep the whole register file (Midgard: 64).
  const ComputeLimits& limits = gl.limits();
  const int64_t most =
      regions ? registerHeavyInvocations(limits) : int64_t(limits.work_group_invocations);
  while (p.workgroup_y > 1 && int64_t(kWorkgroupX) * p.workgroup_y > most) p.workgroup_y /= 2;
  return p;
}

Status SobelParams::validate(const ComputeLimits& limits) const {
  // A power of two keeps the shared-memory tree whole.
  if (workgroup_y != 1 && workgroup_y != 2 && workgroup_y != 4 && workgroup_y != 8)
    return fail(ErrorCode::kInvalidArgument, kSobelStage,
                ": workgroup_y must be 1, 2, 4 or 8, got ", std::to_string(workgroup_y));
  return checkWorkgroup(limits, kSobelStage, kWorkgroupX, workgroup_y,
                        int64_t(kSobelPartialWords) * kWorkgroupX * workgroup_y * 4);
}

Result<Sobel> Sobel::create(const GlContext& gl, const SobelParams& params,
                            const HealthRegionSpec& regions) {
  if (Status s = params.validate(gl.limits()); !s) return s.error();
  if (Status s = checkWorkgroup(
          gl.limits(), kSobelStage, SobelParams::kWorkgroupX, params.workgroup_y,
          (int64_t(kSobelPartialWords) * SobelParams::kWorkgroupX * params.workgroup_y +
           2 * int64_t(regions.count())) *
              4);
      !s)
    return s.error();
  Sobel so(gl, params, regions);
  if (regions.count()) {
    Result<GlBuffer> made = makeStorageBuffer(regions.count() * kSobelRegionWords, "sobel regions");
    if (!made) return made.error();
    so.regions_buffer_ = std::move(made.value());
  }
  if (Result<GLuint> built = builtOnce(so.program_, [&] { return so.build(false); }); !built)
    return built.error();
  return so;
}

Result<GlProgram> Sobel::build(bool packed_source) const {
  return ShaderLibrary::builtin().compute("sobel.comp",
                                          ShaderDefines()
                                              .set("WG_X", SobelParams::kWorkgroupX)
                                              .set("WG_Y", params_.workgroup_y)
                                              .set("PACKED_SOURCE", packed_source ? 1 : 0)
                                              .set("GRID_COLUMNS", regions_.columns)
                                              .set("GRID_ROWS", regions_.rows)
                                              .set("ROIS", int64_t(regions_.rois.size())));
}

Status Sobel::run(GLuint luma, int width, int height, bool full_range) {
  return completeAlone(*this, queueOn(luma, 0, width, height, false, full_range));
}

Status Sobel::run(const PackedRgbaBuffer& frame, bool from_rgb, bool full_range) {
  return completeAlone(*this, queue(frame, from_rgb, full_range));
}

Status Sobel::queue(const PackedRgbaBuffer& frame, bool from_rgb, bool full_range) {
  if (Result<GLuint> built = builtOnce(packed_program_, [&] { return build(true); }); !built)
    return built.error();
  return queueOn(0, frame.buffer(), frame.width(), frame.height(), from_rgb, full_range);
}

Status Sobel::complete() {
  if (!queued_) return Status::success();
  queued_ = false;
  const size_t region_words = regions_.count() * kSobelRegionWords;
  if (region_words) {  // beside the partials: read() takes both in one read-back
    copyWords(regions_buffer_.get(), 0, partials_.get(), size_t(workgroups_) * kSobelPartialWords,
              region_words);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  }
  return checkGl("sobel regions copy");
}

Status Sobel::queueOn(GLuint luma, GLuint packed, int width, int height, bool from_rgb,
                      bool full_range) {
  if (uint64_t(width) * uint64_t(height) > 0xFFFFFFFFull)
    return fail(ErrorCode::kUnsupported, kSobelStage, ": ", std::to_string(width), "x",
                std::to_string(height), " has more than 2^32 - 1 pixels");
  width_ = width;
  height_ = height;
  workgroups_ = 0;
  if (width < 3 || height < 3) return Status::success();  // no interior pixel
  const int64_t gx = (int64_t(width) - 2 + SobelParams::kColumnsPerWorkgroup - 1) /
                     SobelParams::kColumnsPerWorkgroup;
  const int64_t rows = params_.rowsPerWorkgroup();
  const int64_t gy = (int64_t(height) - 2 + rows - 1) / rows;
  if (Status s = checkDispatch(gl_->limits(), kSobelStage, gx, gy); !s) return s;
  const size_t region_at = size_t(gx * gy) * kSobelPartialWords;
  const size_t words = region_at + regions_.count() * kSobelRegionWords;
  if (words > partial_words_) {
    Result<GlBuffer> made = makeStorageBuffer(words, "sobel partials");
    if (!made) return made.error();
    partials_ = std::move(made.value());
    partial_words_ = words;
  }
  GLuint p = packed ? packed_program_.get() : program_.get();
  glUseProgram(p);
  glUniform2ui(glGetUniformLocation(p, "u_size"), GLuint(width), GLuint(height));
  glUniform1i(glGetUniformLocation(p, "u_full_range"), full_range);
  glUniform1ui(glGetUniformLocation(p, "u_rows_per_invocation"), SobelParams::kRowsPerInvocation);
  glUniform1ui(glGetUniformLocation(p, "u_pixels_per_step"), 4);
  // No barrier here: the input's writer issued its own, and the partials' last reader was a
  // read-back through a mapping (done before this), so a pass queued beside this one can overlap.
  if (packed) {
    glUniform1i(glGetUniformLocation(p, "u_from_rgb"), from_rgb);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, packed);
  } else {
    glUniform1ui(glGetUniformLocation(p, "u_words"),
                 GLuint((uint64_t(width) * uint64_t(height) + 3) / 4));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, luma);
  }
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, partials_.get());
  const size_t region_words = regions_.count() * kSobelRegionWords;
  if (region_words) {
    if (Status s = fillBuffer(regions_buffer_.get(), region_words, 0, "sobel regions"); !s)
      return s;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, regions_buffer_.get());
    setRoiUniforms(p, regions_, width, height);
  }
  glDispatchCompute(GLuint(gx), GLuint(gy), 1);
  workgroups_ = gx * gy;
  queued_ = true;
  return checkGl("sobel dispatch");
}

GpuWords Sobel::resultWords() const {
  if (width_ < 3 || height_ < 3) return {partials_.get(), 0, 0};
  return {partials_.get(), 0,
          size_t(workgroups_) * kSobelPartialWords + regions_.count() * kSobelRegionWords};
}

Result<SobelSums> Sobel::read() const {
  const GpuWords where = resultWords();
  if (!where.words) return sumsOf({});
  Result<std::vector<uint32_t>> words = readWords(where.buffer, where.words, "sobel read-back");
  if (!words) return words.error();
  return sumsOf(words.value());
}

Result<SobelSums> Sobel::sumsOf(std::span<const uint32_t> words) const {
  SobelSums s;
  s.region_squares.assign(regions_.count(), 0);
  if (width_ < 3 || height_ < 3) return s;
  if (!workgroups_) return fail(ErrorCode::kInternal, kSobelStage, ": read() before a run");
  if (words.size() != resultWords().words)
    return fail(ErrorCode::kInternal, kSobelStage, ": ", std::to_string(words.size()),
                " words read back, not ", std::to_string(resultWords().words));
  s.samples = uint64_t(width_ - 2) * uint64_t(height_ - 2);
  const size_t region_at = size_t(workgroups_) * kSobelPartialWords;
  for (int64_t g = 0; g < workgroups_; ++g) {
    const uint32_t* p = &words[size_t(g) * kSobelPartialWords];
    s.squares += uint64_t(p[0]) | uint64_t(p[1]) << 32;
    s.roots += uint64_t(p[2]) | uint64_t(p[3]) << 32;
    Wide96 part;
    part.words = {p[4], p[5], p[6]};
    s.root_squares.add(part);
  }
  for (size_t r = 0; r < regions_.count(); ++r) {
    const uint32_t* p = &words[region_at + r * kSobelRegionWords];
    s.region_squares[r] = uint64_t(p[0]) | uint64_t(p[1]) << 32;
  }
  return s;
}

Status Sobel::poison(uint32_t pattern) {
  if (!partial_words_) return Status::success();
  return fillBuffer(partials_.get(), partial_words_, pattern, "sobel poison");
}

}  // namespace esf
