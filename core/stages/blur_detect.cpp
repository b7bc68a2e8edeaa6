#include "core/stages/blur_detect.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "core/stages/stage_limits.hpp"
#include "platform/shader_library.hpp"
#include "platform/workgroup_shape.hpp"

namespace esf {
namespace {
constexpr const char* kBlurStage = "blurdetect";
constexpr int kPasses = 4;          // gaussian, sobel, nms, widths
constexpr int kBlockWords = 4;      // edge pixels, sum of k, diagonal sum (64 bits)
constexpr int kMaxSteps = 2 * 100;  // k1 + k2 at blurdetect's largest radius
}  // namespace

BlurDetectParams BlurDetectParams::defaultsFor(const GlContext& gl) {
  // The Gaussian pass keeps many values live: within Midgard's full-register workgroup.
  const ComputeLimits& limits = gl.limits();
  const WorkgroupShape shape =
      pixelWorkgroup(limits, std::min(kV3dMaxInvocations, int(registerHeavyInvocations(limits))));
  return {shape.x, shape.y};
}

Status BlurDetectParams::validate(const ComputeLimits& limits) const {
  for (auto [name, value] : {std::pair{"workgroup_x", workgroup_x}, {"workgroup_y", workgroup_y}})
    if (Status s = checkRange(kBlurStage, name, value, 1, 1024); !s) return s;
  // The Gaussian pass's tile: the workgroup's samples and two around them, a word each.
  const int64_t tile_bytes = (int64_t(workgroup_x) + 4) * (int64_t(workgroup_y) + 4) * 4;
  return checkWorkgroup(limits, kBlurStage, workgroup_x, workgroup_y, tile_bytes);
}

Result<BlurDetect> BlurDetect::create(const GlContext& gl, const BlurDetectParams& params,
                                      const BlurDetectConfig& config) {
  if (Status s = params.validate(gl.limits()); !s) return s.error();
  if (Status s = checkRange(kBlurStage, "radius", config.radius, 1, kMaxSteps / 2); !s)
    return s.error();
  if (Status s = checkRange(kBlurStage, "block_pct", config.block_pct, 1, 100); !s)
    return s.error();
  // The busiest invocation's loops: the two walks along an edge, or its share of the Gaussian's
  // tile.
  const int64_t invocations = int64_t(params.workgroup_x) * params.workgroup_y;
  const int64_t tile = (int64_t(params.workgroup_x) + 4) * (int64_t(params.workgroup_y) + 4);
  const int64_t loops =
      std::max(2 * int64_t(config.radius), (tile + invocations - 1) / invocations);
  if (Status s = checkLoopIterations(gl, kBlurStage, loops, "use a smaller radius"); !s)
    return s.error();
  BlurDetect out(gl, params, config);
  for (int form = 0; form <= kPasses; ++form) {  // the passes, then the packed Gaussian
    const bool packed = form == kPasses;
    Result<GlProgram> program = ShaderLibrary::builtin().compute(
        "blurdetect.comp", ShaderDefines()
                               .set("PASS", packed ? 0 : form)
                               .set("PACKED_SOURCE", packed ? 1 : 0)
                               .set("WG_X", params.workgroup_x)
                               .set("WG_Y", params.workgroup_y));
    if (!program) return program.error();
    (packed ? out.packed_gaussian_ : out.programs_[form]) = std::move(program.value());
  }
  // diagonalWidth(k) in units of 2^-24, exact: below 2^8, it has 24 significant bits.
  uint32_t diagonal[kMaxSteps + 1];
  for (int k = 0; k <= kMaxSteps; ++k) diagonal[k] = uint32_t(double(diagonalWidth(k)) * 0x1p24);
  const GLuint widths = out.programs_[3].get();
  glUseProgram(widths);
  glUniform1uiv(glGetUniformLocation(widths, "u_diagonal"), kMaxSteps + 1, diagonal);
  if (Status s = checkGl("blurdetect's diagonal widths"); !s) return s.error();
  Result<GlBuffer> blocks = makeStorageBuffer(kBlockWords, "blurdetect block counts");
  if (!blocks) return blocks.error();
  out.blocks_ = std::move(blocks.value());
  out.block_capacity_ = kBlockWords;
  return out;
}

Status BlurDetect::ensureBuffers(int width0, int height0, size_t block_words) {
  const int64_t max_bytes = gl_->limits().max_ssbo_size;
  if (width0 != width0_ || height0 != height0_) {
    const uint64_t words = uint64_t(width0) * uint64_t(height0);
    if (words * 4 > uint64_t(max_bytes))
      return fail(ErrorCode::kUnsupported, kBlurStage, ": a ", std::to_string(width0), "x",
                  std::to_string(height0), " plane needs ", std::to_string(words * 4),
                  " bytes a buffer; the GPU's storage blocks hold ", std::to_string(max_bytes));
    for (GlBuffer* b : {&smoothed_, &gradients_, &edges_}) {
      Result<GlBuffer> made = makeStorageBuffer(size_t(words), "blurdetect plane");
      if (!made) return made.error();
      *b = std::move(made.value());
    }
    // As the reference's: no gradients left by an earlier plane of another size.
    if (Status s = fillBuffer(gradients_.get(), size_t(words), 0, "blurdetect gradients"); !s)
      return s;
    width0_ = width0, height0_ = height0;
  }
  if (block_words > block_capacity_) {
    Result<GlBuffer> made = makeStorageBuffer(block_words, "blurdetect block counts");
    if (!made) return made.error();
    blocks_ = std::move(made.value());
    block_capacity_ = block_words;
  }
  return Status::success();
}

Status BlurDetect::run(std::span<const BlurDetectPlane> planes) {
  ran_ = false;
  if (planes.empty() || planes[0].width < 1 || planes[0].height < 1)
    return fail(ErrorCode::kInternal, kBlurStage, ": no planes to count");
  const int width0 = planes[0].width, height0 = planes[0].height;
  // The block counts' layout, in 64 bits: 1x1 blocks of a large frame are many words.
  std::vector<PlaneBlocks> layout;
  uint64_t words = 0, block_pixels = 0;  // the largest block's, of those counted
  for (size_t p = 0; p < planes.size(); ++p) {
    if (!((1 << p) & config_.planes)) continue;
    PlaneBlocks at;
    const BlurDetectPlane& plane = planes[p];
    at.counted = plane.width >= 5 && plane.height >= 5;  // an interior for the 5x5 Gaussian
    if (at.counted) {
      if (!plane.texture && !plane.packed)
        return fail(ErrorCode::kInternal, kBlurStage, ": plane ", std::to_string(p),
                    " has no texture or buffer");
      at.blocks = blurBlocksOf(config_, width0, height0, plane.width, plane.height, plane.shift_x,
                               plane.shift_y);
      at.first = size_t(words);
      words += uint64_t(at.blocks.rows) * uint64_t(at.blocks.columns) * kBlockWords;
      if (at.blocks.rows && at.blocks.columns)
        block_pixels =
            std::max(block_pixels, uint64_t(at.blocks.width) * uint64_t(at.blocks.height));
    }
    layout.push_back(at);
  }
  const std::string blocks = std::to_string(config_.block_width) + "x" +
                             std::to_string(config_.block_height) +
                             " (block_width x block_height) on a " + std::to_string(width0) + "x" +
                             std::to_string(height0) + " frame";
  // A block's sum of k in one word: each edge pixel adds at most 2 * radius.
  if (block_pixels * 2 * uint64_t(config_.radius) > 0xFFFFFFFFull)
    return fail(ErrorCode::kUnsupported, kBlurStage, ": blocks of ", blocks, " of ",
                std::to_string(block_pixels), " pixels could sum more widths than 32 bits hold",
                ": use smaller blocks or a smaller radius");
  const uint64_t max_bytes = uint64_t(gl_->limits().max_ssbo_size);
  if (words * 4 > max_bytes)
    return fail(ErrorCode::kUnsupported, kBlurStage, ": blocks of ", blocks, " need ",
                std::to_string(words * 4), " bytes of block counts; the GPU's storage blocks hold ",
                std::to_string(max_bytes), ": use larger blocks");
  if (Status s = ensureBuffers(width0, height0, std::max<size_t>(size_t(words), 1)); !s) return s;
  if (words)
    if (Status s = fillBuffer(blocks_.get(), size_t(words), 0, "blurdetect block counts"); !s)
      return s;
  size_t next = 0;
  for (size_t p = 0; p < planes.size(); ++p) {
    if (!((1 << p) & config_.planes)) continue;
    const PlaneBlocks& at = layout[next++];
    if (!at.counted) continue;
    if (Status s = runPlane(planes[p], at); !s) return s;
  }
  glMemoryBarrier(kStorageWrittenBarrier);
  planes_ = std::move(layout);
  layout_words_ = size_t(words);
  ran_ = true;
  return checkGl("blurdetect dispatch");
}

Status BlurDetect::runPlane(const BlurDetectPlane& plane, const PlaneBlocks& at) {
  const int w = plane.width, h = plane.height;
  const int64_t groups_x = (int64_t(w) + params_.workgroup_x - 1) / params_.workgroup_x;
  const int64_t groups_y = (int64_t(h) + params_.workgroup_y - 1) / params_.workgroup_y;
  if (Status s = checkDispatch(gl_->limits(), kBlurStage, groups_x, groups_y); !s) return s;
  const bool blocks = at.blocks.rows > 0 && at.blocks.columns > 0;
  for (int pass = 0; pass < kPasses; ++pass) {
    // Edges serve only the blocks; Sobel's gradients are kept for later planes either way.
    if (pass >= 2 && !blocks) break;
    const bool packed = pass == 0 && !plane.texture;
    const GLuint p = packed ? packed_gaussian_.get() : programs_[pass].get();
    glUseProgram(p);
    glUniform2i(glGetUniformLocation(p, "u_size"), w, h);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, smoothed_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, packed ? plane.packed : gradients_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, edges_.get());
    if (pass == 0) {
      if (!packed) {
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, plane.texture);
        glUniform1i(glGetUniformLocation(p, "u_plane"), 0);
      }
      glUniform1i(glGetUniformLocation(p, "u_step_x"), plane.step_x);
      glUniform1i(glGetUniformLocation(p, "u_offset_x"), plane.offset_x);
      glUniform1i(glGetUniformLocation(p, "u_channel"), plane.channel);
    }
    if (pass == 3) {
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, blocks_.get());
      glUniform1ui(glGetUniformLocation(p, "u_low"), blurThreshold(config_.low));
      glUniform1ui(glGetUniformLocation(p, "u_high"), blurThreshold(config_.high));
      glUniform1i(glGetUniformLocation(p, "u_radius"), config_.radius);
      glUniform2i(glGetUniformLocation(p, "u_block"), at.blocks.width, at.blocks.height);
      glUniform2i(glGetUniformLocation(p, "u_grid"), at.blocks.columns, at.blocks.rows);
      glUniform1ui(glGetUniformLocation(p, "u_blocks_at"), GLuint(at.first));
    }
    glDispatchCompute(GLuint(groups_x), GLuint(groups_y), 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
  return checkGl("blurdetect plane");
}

Result<float> BlurDetect::read() const {
  if (!ran_ || !layout_words_) return figureOf({});  // nothing to read back
  Result<std::vector<uint32_t>> words =
      readWordsByCopy(blocks_.get(), layout_words_, "blurdetect read-back");
  return words ? figureOf(words.value()) : Result<float>(words.error());
}

Result<float> BlurDetect::figureOf(std::span<const uint32_t> words) const {
  // Before a run (or after a refused one) there are no counts; a span of another length is not
  // the last run's words.
  if (!ran_)
    return fail(ErrorCode::kInternal, kBlurStage, ": no block counts to read (no run yet)");
  if (words.size() != layout_words_)
    return fail(ErrorCode::kInternal, kBlurStage, ": ", std::to_string(words.size()),
                " words of block counts where the last run wrote ", std::to_string(layout_words_));
  float blur = 0.0f;
  for (const PlaneBlocks& plane : planes_) {
    if (!plane.counted) continue;  // a figure of 0
    const size_t blocks = size_t(plane.blocks.rows) * size_t(plane.blocks.columns);
    sharpest_.begin(blocks);
    for (size_t b = 0; b < blocks; ++b) {
      const uint32_t* c = words.data() + plane.first + b * kBlockWords;
      // ffmpeg's double sum of the widths: its terms are multiples of 2^-24 below 2^8, so it is
      // exact, and equal to this, while it stays below 2^29 (a block of 4K's size where nearly
      // every pixel is an edge could pass it; there the two may differ in the last bits).
      const uint64_t diagonal = uint64_t(c[2]) | uint64_t(c[3]) << 32;
      const double total = double(c[1]) + double(diagonal) * 0x1p-24;
      sharpest_.add(total, int(c[0]));
    }
    blur += sharpest_.mean(config_.block_pct);
  }
  if (!planes_.empty()) blur /= float(planes_.size());
  return blur;
}

Status BlurDetect::poison(uint32_t pattern) {
  return fillBuffer(blocks_.get(), block_capacity_, pattern, "blurdetect poison");
}

}  // namespace esf
