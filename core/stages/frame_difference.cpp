#include "core/stages/frame_difference.hpp"

#include <string>
#include <utility>

#include "core/stages/stage_gl.hpp"
#include "core/stages/stage_limits.hpp"
#include "platform/shader_library.hpp"
#include "platform/workgroup_shape.hpp"

namespace esf {
namespace {
constexpr const char* kDifferenceStage = "frame difference";
constexpr size_t kDifferenceHistogramWords = 256;
// The record: the histogram and 4 sums of 64 bits, then the regions'.
constexpr size_t kDifferenceRecordWords = 264;
constexpr size_t kDifferenceRegionWords = 4;  // sum Y and the changed count, 64 bits each
}  // namespace

FrameDifferenceParams FrameDifferenceParams::defaultsFor(const GlContext& gl, bool regions) {
  FrameDifferenceParams p;
  if (gl.limits().work_group_invocations < 256) p.workgroup_size = 128;  // the GLES minimum
  // With regions each invocation keeps two sums a region besides the frame's four: within the
  // invocations that keep the whole register file (Midgard: 64).
  if (regions)
    while (p.workgroup_size > 64 && p.workgroup_size > registerHeavyInvocations(gl.limits()))
      p.workgroup_size /= 2;
  return p;
}

Status FrameDifferenceParams::validate(const ComputeLimits& limits) const {
  if (workgroup_size < 64 || workgroup_size > 1024 || (workgroup_size & (workgroup_size - 1)))
    return fail(ErrorCode::kInvalidArgument, kDifferenceStage,
                ": workgroup_size must be a power of two in [64, 1024], got ",
                std::to_string(workgroup_size));
  // Every 32-bit partial holds a workgroup's pixels: (F(Y) - F(P))^2 <= 65025 each.
  if (Status s = checkRange(kDifferenceStage, "words_per_invocation", words_per_invocation, 1,
                            int64_t(0xFFFFFFFFu / 65025u) / 4 / workgroup_size);
      !s)
    return s;
  const int64_t shared = (kDifferenceHistogramWords + 4 * int64_t(workgroup_size)) * 4;
  return checkWorkgroup(limits, kDifferenceStage, workgroup_size, 1, shared);
}

Result<FrameDifference> FrameDifference::create(const GlContext& gl,
                                                const FrameDifferenceParams& params,
                                                const HealthRegionSpec& regions) {
  if (Status s = params.validate(gl.limits()); !s) return s.error();
  // A region's two sums are 64 bits each in shared memory too (common/regions.glsl).
  const int64_t shared = (kDifferenceHistogramWords + 4 * int64_t(params.workgroup_size) +
                          int64_t(kDifferenceRegionWords * regions.count())) *
                         4;
  if (Status s = checkWorkgroup(gl.limits(), kDifferenceStage, params.workgroup_size, 1, shared);
      !s)
    return s.error();
  FrameDifference d(gl, params, regions);
  if (Result<GLuint> built = builtOnce(d.program_, [&] { return d.build(false); }); !built)
    return built.error();
  return d;
}

FrameDifference::FrameDifference(const GlContext& gl, const FrameDifferenceParams& params,
                                 const HealthRegionSpec& regions)
    : gl_(&gl),
      params_(params),
      accepts_packed_(gl.limits().compute_storage_blocks >= 6 && gl.limits().ssbo_bindings >= 6),
      regions_(regions),
      // The result binding is a fifth storage block: GLES 3.1 promises 4.
      publish_(gl.limits().compute_storage_blocks >= 5 && gl.limits().ssbo_bindings >= 5) {}

Result<GlProgram> FrameDifference::build(bool packed_source) const {
  return ShaderLibrary::builtin().compute("frame_difference.comp",
                                          ShaderDefines()
                                              .set("WG_SIZE", params_.workgroup_size)
                                              .set("WORDS", params_.words_per_invocation)
                                              .set("PUBLISH", publish_ ? 1 : 0)
                                              .set("PACKED_SOURCE", packed_source ? 1 : 0)
                                              .set("GRID_COLUMNS", regions_.columns)
                                              .set("GRID_ROWS", regions_.rows)
                                              .set("ROIS", int64_t(regions_.rois.size())));
}

Status FrameDifference::allocate(int width, int height) {
  const uint64_t pixels = uint64_t(width) * uint64_t(height);
  if (pixels > 0xFFFFFFFFull)  // the shader indexes pixels in 32 bits
    return fail(ErrorCode::kUnsupported, kDifferenceStage, ": ", std::to_string(width), "x",
                std::to_string(height), " has more than 2^32 - 1 pixels");
  const uint64_t words = (pixels + 3) / 4;
  const int64_t per_workgroup = int64_t(params_.workgroup_size) * params_.words_per_invocation;
  const int64_t workgroups =
      int64_t((words + uint64_t(per_workgroup) - 1) / uint64_t(per_workgroup));
  if (Status s = checkDispatch(gl_->limits(), kDifferenceStage, workgroups, 1); !s) return s;
  for (GlBuffer& b : luma_) {
    Result<GlBuffer> made = makeStorageBuffer(size_t(words), "frame difference luma");
    if (!made) return made.error();
    b = std::move(made.value());
  }
  const size_t record_words = recordWords();
  // totals_: the record and (publishing) the shader's count of finished workgroups, zero
  // between passes.
  const size_t totals_words = record_words + (publish_ ? 1 : 0);
  Result<GlBuffer> totals = makeStorageBuffer(totals_words, "frame difference totals");
  if (!totals) return totals.error();
  totals_ = std::move(totals.value());
  if (Status s = fillBuffer(totals_.get(), totals_words, 0, "frame difference totals"); !s)
    return s;
  Result<GlBuffer> result = makeStorageBuffer(record_words, "frame difference result");
  if (!result) return result.error();
  result_ = std::move(result.value());
  width_ = width;
  height_ = height;
  workgroups_ = workgroups;
  reset();
  return Status::success();
}

size_t FrameDifference::recordWords() const {
  return kDifferenceRecordWords + regions_.count() * kDifferenceRegionWords;
}

void FrameDifference::reset() {
  current_ = 0;
  previous_ = reference_ = -1;
}

Status FrameDifference::run(const GpuImage& image, bool from_rgb, bool full_range) {
  return completeAlone(
      *this, queueOn(image.texture(), 0, image.width(), image.height(), from_rgb, full_range));
}

Status FrameDifference::run(const PackedRgbaBuffer& frame, bool from_rgb, bool full_range) {
  return completeAlone(*this, queue(frame, from_rgb, full_range));
}

Status FrameDifference::queue(const PackedRgbaBuffer& frame, bool from_rgb, bool full_range) {
  if (!accepts_packed_)
    return fail(ErrorCode::kUnsupported, kDifferenceStage,
                ": a packed frame needs a sixth storage block, which this GPU does not have");
  if (Result<GLuint> built = builtOnce(packed_program_, [&] { return build(true); }); !built)
    return built.error();
  return queueOn(0, frame.buffer(), frame.width(), frame.height(), from_rgb, full_range);
}

Status FrameDifference::complete() {
  if (!queued_) return Status::success();
  queued_ = false;
  if (!publish_) {  // into the buffer the host maps, on the GPU
    copyWords(totals_.get(), 0, result_.get(), 0, recordWords());
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  }
  return checkGl("frame difference copy");
}

Status FrameDifference::queueOn(GLuint texture, GLuint packed, int width, int height, bool from_rgb,
                                bool full_range) {
  if (width != width_ || height != height_) {
    if (Status s = allocate(width, height); !s) return s;
  }
  const bool first = previous_ < 0;
  const uint64_t pixels = uint64_t(width_) * uint64_t(height_);
  GLuint p = packed ? packed_program_.get() : program_.get();
  glUseProgram(p);
  // No barrier before the dispatch: the frame's writer issued its own, the kept frames' and
  // totals' writers (the earlier runs) theirs, the zeroing and poisoning are buffer commands and
  // the read-backs mappings, all ordered before what follows them. A pass queued beside this
  // one can then overlap it.
  if (packed) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, packed);
  } else {
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    glUniform1i(glGetUniformLocation(p, "u_image"), 0);
  }
  glUniform2ui(glGetUniformLocation(p, "u_size"), GLuint(width_), GLuint(height_));
  glUniform1ui(glGetUniformLocation(p, "u_words"), GLuint((pixels + 3) / 4));
  glUniform1i(glGetUniformLocation(p, "u_first"), first);
  glUniform1i(glGetUniformLocation(p, "u_from_rgb"), from_rgb);
  glUniform1i(glGetUniformLocation(p, "u_full_range"), full_range);
  glUniform1ui(glGetUniformLocation(p, "u_pixels_per_word"), 4);
  // A first frame reads no kept frame: the current buffer stands in for both bindings.
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, luma_[current_].get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, luma_[first ? current_ : previous_].get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, luma_[first ? current_ : reference_].get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, totals_.get());
  if (publish_) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, result_.get());
  } else if (Status s = fillBuffer(totals_.get(), recordWords(), 0, "frame difference totals");
             !s) {
    return s;
  }
  if (regions_.count()) {
    glUniform1ui(glGetUniformLocation(p, "u_change_level"), regions_.change_level);
    setRoiUniforms(p, regions_, width_, height_);
  }
  glDispatchCompute(GLuint(workgroups_), 1, 1);
  queued_ = true;
  return checkGl("frame difference dispatch");
}

Result<FrameDifferenceSums> FrameDifference::read() const {
  if (!workgroups_) return fail(ErrorCode::kInternal, kDifferenceStage, ": read() before a run");
  Result<std::vector<uint32_t>> words =
      readWords(result_.get(), recordWords(), "frame difference read-back");
  if (!words) return words.error();
  return sumsOf(words.value());
}

Result<FrameDifferenceSums> FrameDifference::sumsOf(std::span<const uint32_t> w) const {
  if (!workgroups_) return fail(ErrorCode::kInternal, kDifferenceStage, ": read() before a run");
  if (w.size() != recordWords())
    return fail(ErrorCode::kInternal, kDifferenceStage, ": ", std::to_string(w.size()),
                " words read back, not ", std::to_string(recordWords()));
  const size_t regions = regions_.count();
  auto wide = [&](size_t i) { return uint64_t(w[i]) | uint64_t(w[i + 1]) << 32; };
  FrameDifferenceSums s;
  for (size_t b = 0; b < kDifferenceHistogramWords; ++b) s.histogram[b] = w[b];
  s.sad_previous = wide(256);
  s.sad_reference = wide(258);
  s.motion_sum = int64_t(wide(260));
  s.motion_squares = wide(262);
  for (size_t i = 0; i < regions; ++i) {
    const size_t o = kDifferenceRecordWords + i * kDifferenceRegionWords;
    s.region_luma.push_back(wide(o));
    s.region_changed.push_back(wide(o + 2));
  }
  return s;
}

void FrameDifference::advance(bool frozen) {
  const int kept = current_;
  previous_ = kept;
  if (!frozen || reference_ < 0) reference_ = kept;
  for (int i = 0; i < 3; ++i) {
    if (i != previous_ && i != reference_) {
      current_ = i;
      break;
    }
  }
}

Status FrameDifference::poison(uint32_t pattern) {
  if (!workgroups_) return Status::success();
  return fillBuffer(result_.get(), recordWords(), pattern, "frame difference poison");
}

}  // namespace esf
