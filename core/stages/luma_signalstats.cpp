#include "core/stages/luma_signalstats.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "core/stages/stage_limits.hpp"
#include "platform/shader_library.hpp"

namespace esf {
namespace {
constexpr const char* kLumaStage = "luma signalstats";

// The shader's shared words: its two counts and a sum per row.
int64_t sharedBytes(int workgroup_rows) {
  return (2 + int64_t(workgroup_rows)) * 4;
}
}  // namespace

LumaSignalstatsParams LumaSignalstatsParams::defaultsFor(const GlContext& gl) {
  const ComputeLimits& limits = gl.limits();
  const int invocations = std::max(1, std::min(kV3dMaxInvocations, limits.work_group_invocations));
  LumaSignalstatsParams p;
  p.row_invocations = std::max(1, std::min({64, int(limits.work_group_size[0]), invocations}));
  p.workgroup_rows =
      std::max(1, std::min(invocations / p.row_invocations, int(limits.work_group_size[1])));
  return p;
}

Status LumaSignalstatsParams::validate(const ComputeLimits& limits) const {
  if (Status s = checkRange(kLumaStage, "row_invocations", row_invocations, 1, 1024); !s) return s;
  if (Status s = checkRange(kLumaStage, "workgroup_rows", workgroup_rows, 1, 1024); !s) return s;
  return checkWorkgroup(limits, kLumaStage, row_invocations, workgroup_rows,
                        sharedBytes(workgroup_rows));
}

bool lumaInGreen(PixelFormat yuv_format) {
  return yuvPlaneLayout(yuv_format).layout == 3;  // UYVY: (Cb, Y), (Cr, Y) pairs
}

LumaPlane lumaPlaneOf(const ImportedFrame& imported, bool y_in_green) {
  return {imported.planes[0], y_in_green, imported.width, imported.height};
}

Result<LumaSignalstats> LumaSignalstats::create(const GlContext& gl,
                                                const LumaSignalstatsParams& params, bool tout,
                                                bool vrep) {
  if (!tout && !vrep)
    return fail(ErrorCode::kInvalidArgument, kLumaStage, ": neither TOUT nor VREP asked for");
  if (Status s = params.validate(gl.limits()); !s) return s.error();
  LumaSignalstats out(gl, params, tout, vrep);
  Result<GlProgram> program = ShaderLibrary::builtin().compute(
      "luma_signalstats.comp", ShaderDefines()
                                   .set("TOUT", tout ? 1 : 0)
                                   .set("VREP", vrep ? 1 : 0)
                                   .set("WG_X", params.row_invocations)
                                   .set("WG_Y", params.workgroup_rows));
  if (!program) return program.error();
  out.program_ = std::move(program.value());
  Result<GlBuffer> counts = makeStorageBuffer(kWords, "luma signalstats counts");
  if (!counts) return counts.error();
  out.counts_ = std::move(counts.value());
  return out;
}

Status LumaSignalstats::run(const LumaPlane& plane) {
  const int w = plane.width, h = plane.height;
  if (w < 1 || h < 1 || !plane.texture)
    return fail(ErrorCode::kInternal, kLumaStage, ": no Y plane (", std::to_string(w), "x",
                std::to_string(h), ")");
  // The outlier count in one word; a row's sum (w * 255) fits as well where this does.
  if (uint64_t(w) * uint64_t(h) > 0xFFFFFFFFull)
    return fail(ErrorCode::kUnsupported, kLumaStage, ": ", std::to_string(w), "x",
                std::to_string(h), " pixels exceed a 32-bit count");
  // Each invocation's two loops over its run of a row.
  const int64_t run = (int64_t(w) + params_.row_invocations - 1) / params_.row_invocations;
  if (Status s = checkLoopIterations(*gl_, kLumaStage, 2 * run, "use more row_invocations"); !s)
    return s;
  const int64_t groups = (int64_t(h) + params_.workgroup_rows - 1) / params_.workgroup_rows;
  if (Status s = checkDispatch(gl_->limits(), kLumaStage, groups, 1); !s) return s;
  if (Status s = fillBuffer(counts_.get(), kWords, 0, "luma signalstats counts"); !s) return s;
  const GLuint p = program_.get();
  glUseProgram(p);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, plane.texture);
  glUniform1i(glGetUniformLocation(p, "u_luma"), 0);
  glUniform1i(glGetUniformLocation(p, "u_y_in_green"), plane.y_in_green ? 1 : 0);
  glUniform2i(glGetUniformLocation(p, "u_size"), w, h);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, counts_.get());
  glDispatchCompute(GLuint(groups), 1, 1);
  glMemoryBarrier(kStorageWrittenBarrier);
  ran_ = true;
  return checkGl("luma signalstats dispatch");
}

Result<LumaSignalstatsCounts> LumaSignalstats::read() const {
  Result<std::vector<uint32_t>> words =
      readWordsByCopy(counts_.get(), kWords, "luma signalstats read-back");
  if (!words) return words.error();
  return countsOf(words.value());
}

Result<LumaSignalstatsCounts> LumaSignalstats::countsOf(std::span<const uint32_t> words) const {
  // Before a run the buffer holds no counts; a span of another length is not its words.
  if (!ran_ || words.size() != kWords)
    return fail(ErrorCode::kInternal, kLumaStage, ": no counts to read (",
                ran_ ? std::to_string(words.size()) + " words" : std::string("no run yet"), ")");
  LumaSignalstatsCounts out;
  if (tout_) out.outlier_pixels = words[0];
  if (vrep_) out.repeated_rows = words[1];
  return out;
}

Status LumaSignalstats::poison(uint32_t pattern) {
  return fillBuffer(counts_.get(), kWords, pattern, "luma signalstats poison");
}

}  // namespace esf
