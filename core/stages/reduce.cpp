#include "core/stages/reduce.hpp"

#include <algorithm>
#include <string>

#include "core/stages/stage_gl.hpp"
#include "core/stages/stage_limits.hpp"
#include "platform/shader_library.hpp"

namespace esf {
namespace {
constexpr const char* kStage = "reduce";
}

ReduceParams ReduceParams::defaultsFor(const GlContext& gl) {
  ReduceParams p;
  const ComputeLimits& l = gl.limits();
  int invocations = std::min({kV3dMaxInvocations, l.work_group_invocations, l.work_group_size[0]});
  p.workgroup_size = std::max(kV3dSubgroupWidth, invocations - invocations % kV3dSubgroupWidth);
  return p;
}

Status ReduceParams::validate(const ComputeLimits& limits) const {
  if (Status s = validateChannels(channels); !s)
    return fail(s.error().code, kStage, ": ", s.error().message);
  if (Status s = checkRange(kStage, "workgroups", workgroups, 1, limits.work_group_count[0]); !s)
    return s;
  return checkWorkgroup(limits, kStage, workgroup_size, 1, int64_t(channels.size()) * 16);
}

Result<ImageReduce> ImageReduce::create(const GlContext& gl, const ReduceParams& params) {
  if (Status s = params.validate(gl.limits()); !s) return s.error();
  ImageReduce r;
  r.gl_ = &gl;
  r.params_ = params;
  ShaderDefines d;
  d.set("CHANNELS", int64_t(params.channels.size()))
      .set("LUMA_601", params.luma == LumaWeights::kBt601 ? 1 : 0)
      .set("SOURCE_BUFFER", params.source == ImageSource::kPackedBuffer ? 1 : 0)
      .set("WG_X", params.workgroup_size);
  for (size_t k = 0; k < 4; ++k)
    d.set("CHANNEL" + std::to_string(k),
          k < params.channels.size() ? channelCode(params.channels[k]) : 0);
  Result<GlProgram> program = ShaderLibrary::builtin().compute("reduce.comp", d);
  if (!program) return program.error();
  r.program_ = std::move(program.value());
  Result<GlBuffer> result = makeStorageBuffer(params.channels.size() * 4, "reduce result buffer");
  if (!result) return result.error();
  r.result_ = std::move(result.value());
  return r;
}

Status ImageReduce::poison(uint32_t pattern) {
  return fillBuffer(result_.get(), params_.channels.size() * 4, pattern, "reduce poison");
}

Status ImageReduce::run(const GpuImage& image) {
  if (params_.source != ImageSource::kTexture)
    return fail(ErrorCode::kInvalidArgument, kStage,
                ": configured for a packed buffer source, given a texture");
  return runImpl(image.width(), image.height(), image.texture(), 0);
}

Status ImageReduce::run(const PackedRgbaBuffer& image) {
  if (params_.source != ImageSource::kPackedBuffer)
    return fail(ErrorCode::kInvalidArgument, kStage,
                ": configured for a texture source, given a packed buffer");
  return runImpl(image.width(), image.height(), 0, image.buffer());
}

Status ImageReduce::runImpl(int width, int height, GLuint texture, GLuint buffer) {
  const int64_t threads = int64_t(params_.workgroups) * params_.workgroup_size;
  if (Status s =
          checkLoopIterations(*gl_, kStage, (int64_t(width) * height + threads - 1) / threads,
                              "raise workgroups * workgroup_size");
      !s)
    return s;
  std::vector<uint32_t> init;
  for (size_t k = 0; k < params_.channels.size(); ++k) init.insert(init.end(), {~0u, 0, 0, 0});
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // earlier shader writes before this update
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, result_.get());
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(init.size() * 4), init.data());
  glUseProgram(program_.get());
  bindSourceImage(program_.get(), texture, buffer);
  glUniform2i(glGetUniformLocation(program_.get(), "u_size"), width, height);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, result_.get());
  glDispatchCompute(GLuint(params_.workgroups), 1, 1);
  glMemoryBarrier(kStorageWrittenBarrier);
  return checkGl("reduce dispatch");
}

Result<std::vector<ChannelReduce>> ImageReduce::read() const {
  Result<std::vector<uint32_t>> words =
      readWords(result_.get(), params_.channels.size() * 4, "reduce read-back");
  if (!words) return words.error();
  std::vector<ChannelReduce> out;
  for (size_t k = 0; k < params_.channels.size(); ++k) {
    const uint32_t* w = &words.value()[k * 4];
    out.push_back({w[0], w[1], (uint64_t(w[3]) << 32) | w[2]});
  }
  return out;
}

}  // namespace esf
