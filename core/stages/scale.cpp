#include "core/stages/scale.hpp"

#include <bit>
#include <string>

#include "core/stages/stage_gl.hpp"
#include "platform/shader_library.hpp"

namespace esf {

bool ChannelScale::operator==(const ChannelScale& o) const {
  return max_count == o.max_count && numerator == o.numerator && denominator == o.denominator &&
         std::bit_cast<uint32_t>(scale) == std::bit_cast<uint32_t>(o.scale);
}

Result<HistogramScale> HistogramScale::create(const GlContext& gl, ScaleForm form) {
  HistogramScale s;
  s.gl_ = &gl;
  if (form == ScaleForm::kAuto) form = gl.isLlvmpipe() ? ScaleForm::kLoop : ScaleForm::kTree;
  // The tree's workgroup: 256 invocations, or the largest power of two the driver takes.
  int tree_wg = 256;
  while (tree_wg > 4 &&
         (tree_wg > gl.limits().work_group_invocations || tree_wg > gl.limits().work_group_size[0]))
    tree_wg /= 2;
  Result<GlProgram> program = ShaderLibrary::builtin().compute(
      "histogram_scale.comp",
      ShaderDefines().set("TREE", form == ScaleForm::kTree ? 1 : 0).set("TREE_WG", tree_wg));
  if (!program) return program.error();
  s.program_ = std::move(program.value());
  Result<GlBuffer> buffer = makeStorageBuffer(16, "histogram scale buffer");
  if (!buffer) return buffer.error();
  s.scale_ = std::move(buffer.value());
  return s;
}

Status HistogramScale::run(const Histogram& histogram, uint64_t pixels) {
  return run(histogram.binsBuffer(), histogram.params().bins, histogram.params().channelCount(),
             pixels);
}

Status HistogramScale::run(GLuint bins_buffer, int bins, int channels, uint64_t pixels) {
  if (bins < 1 || bins > 256)
    return fail(ErrorCode::kInvalidArgument, "histogram scale: bins must be in [1, 256]");
  if (channels < 1 || channels > 4)
    return fail(ErrorCode::kInvalidArgument, "histogram scale: channels must be in [1, 4]");
  if (pixels < 1 || pixels > (uint64_t(1) << 31) / 5)
    // A valid image, too large for the shader's 31-bit arithmetic.
    return fail(ErrorCode::kUnsupported, "histogram scale: pixel count ", std::to_string(pixels),
                " is outside 1..429496729 (5 * pixels must fit 31 bits)");
  glUseProgram(program_.get());
  glUniform1ui(glGetUniformLocation(program_.get(), "u_bins"), GLuint(bins));
  glUniform1ui(glGetUniformLocation(program_.get(), "u_channels"), GLuint(channels));
  glUniform1ui(glGetUniformLocation(program_.get(), "u_pixels"), GLuint(pixels));
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, bins_buffer);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, scale_.get());
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the histogram's writes to bins_buffer
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(kStorageWrittenBarrier);
  return checkGl("histogram scale dispatch");
}

Status HistogramScale::poison(uint32_t pattern) {
  return fillBuffer(scale_.get(), 16, pattern, "histogram scale poison");
}

Result<std::vector<ChannelScale>> HistogramScale::read(int channels) const {
  Result<std::vector<uint32_t>> w = readWords(scale_.get(), size_t(channels) * 4, "scale read");
  if (!w) return w.error();
  return scalesOf(w.value());
}

std::vector<ChannelScale> HistogramScale::scalesOf(std::span<const uint32_t> words) {
  std::vector<ChannelScale> out;
  for (size_t k = 0; k + 4 <= words.size(); k += 4) {
    const uint32_t* p = &words[k];
    out.push_back({p[0], p[1], p[2], std::bit_cast<float>(p[3])});
  }
  return out;
}

}  // namespace esf
