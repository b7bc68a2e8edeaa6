#include "core/stages/reduce.hpp"

#include <algorithm>
#include <string>

#include "core/stages/stage_gl.hpp"
#include "core/stages/stage_limits.hpp"
#include "platform/shader_library.hpp"

namespace esf {
namespace {
constexpr const char* kReduceStage = "reduce";

bool hasGlExtension(const char* name) {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i) {
    const char* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i)));
    if (e && std::string_view(e) == name) return true;
  }
  return false;
}

// GLSL ES wants #extension before any other token, and ShaderLibrary's preamble starts with
// precision statements: the subgroup form is compiled here with its own preamble.
Result<GlProgram> compileWithSubgroups(const ShaderDefines& d) {
  Result<ResolvedShader> text = ShaderLibrary::builtin().resolved("reduce.comp");
  if (!text) return text.error();
  std::string pre = d.preamble();
  const std::string version = "#version 310 es\n";
  pre.insert(version.size(),
             "#extension GL_KHR_shader_subgroup_basic : require\n"
             "#extension GL_KHR_shader_subgroup_arithmetic : require\n");
  std::string src = pre + text->text;
  // The shader's own #extension lines are then repeats inside #if SUBGROUP: drop them.
  for (const char* line : {"#extension GL_KHR_shader_subgroup_basic : require\n",
                           "#extension GL_KHR_shader_subgroup_arithmetic : require\n"}) {
    size_t at = src.find(line, pre.size());
    if (at != std::string::npos) src.erase(at, std::string_view(line).size());
  }
  GlShader shader(glCreateShader(GL_COMPUTE_SHADER));
  const GLchar* parts[] = {src.c_str()};
  glShaderSource(shader.get(), 1, parts, nullptr);
  glCompileShader(shader.get());
  GLint ok = GL_FALSE;
  glGetShaderiv(shader.get(), GL_COMPILE_STATUS, &ok);
  auto log = [](GLuint obj, bool program) {
    GLint len = 0;
    program ? glGetProgramiv(obj, GL_INFO_LOG_LENGTH, &len)
            : glGetShaderiv(obj, GL_INFO_LOG_LENGTH, &len);
    std::string s(size_t(std::max(len, 1)), '\0');
    program ? glGetProgramInfoLog(obj, len, nullptr, s.data())
            : glGetShaderInfoLog(obj, len, nullptr, s.data());
    size_t end = std::min(s.find('\0'), s.find('\n'));
    if (end != std::string::npos) s.resize(end);
    return s;
  };
  if (!ok)
    return fail(ErrorCode::kGpu,
                "glsl_es/reduce.comp (subgroups): compile error: ", log(shader.get(), false));
  GlProgram program(glCreateProgram());
  glAttachShader(program.get(), shader.get());
  glLinkProgram(program.get());
  glGetProgramiv(program.get(), GL_LINK_STATUS, &ok);
  if (!ok)
    return fail(ErrorCode::kGpu,
                "glsl_es/reduce.comp (subgroups): link error: ", log(program.get(), true));
  return program;
}

}  // namespace

bool ReduceParams::subgroupsAvailable() {
  return hasGlExtension("GL_KHR_shader_subgroup") ||
         (hasGlExtension("GL_KHR_shader_subgroup_basic") &&
          hasGlExtension("GL_KHR_shader_subgroup_arithmetic"));
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
    return fail(s.error().code, kReduceStage, ": ", s.error().message);
  if (Status s = checkRange(kReduceStage, "workgroups", workgroups, 1, limits.work_group_count[0]);
      !s)
    return s;
  if (pixels_per_invocation % 4 != 0 || pixels_per_invocation < 4 || pixels_per_invocation > 256)
    return fail(ErrorCode::kInvalidArgument, kReduceStage,
                ": pixels_per_invocation must be a multiple of 4 in [4, 256], got ",
                std::to_string(pixels_per_invocation));
  if (Status s = checkRange(kReduceStage, "accumulators", accumulators, 0,
                            std::min(64, std::max(workgroup_size, 1)));
      !s)
    return s;
  if (int64_t(workgroups) * workgroup_size * pixels_per_invocation >= (int64_t(1) << 31))
    return fail(ErrorCode::kUnsupported, kReduceStage,
                ": workgroups * workgroup_size * pixels_per_invocation must stay below 2^31");
  // Shared memory: the tree (16 bytes per invocation and channel), and 16 bytes per channel
  // (subgroups).
  int64_t shared = int64_t(workgroup_size) * 16 * int64_t(channels.size()) +
                   (subgroups ? int64_t(channels.size()) * 16 : 0) + 16;  // + the last flag
  return checkWorkgroup(limits, kReduceStage, workgroup_size, 1, shared);
}

Result<ImageReduce> ImageReduce::create(const GlContext& gl, const ReduceParams& params) {
  if (Status s = params.validate(gl.limits()); !s) return s.error();
  ImageReduce r;
  r.gl_ = &gl;
  r.params_ = params;
  if (params.subgroups && !ReduceParams::subgroupsAvailable())
    return fail(ErrorCode::kUnsupported, kReduceStage,
                ": subgroups=true needs GL_KHR_shader_subgroup_arithmetic, which ", gl.renderer(),
                " does not list");
  Result<GlProgram> program = r.compile(-1);
  if (!program) return program.error();
  r.program_ = std::move(program.value());
  Result<GlBuffer> result = makeStorageBuffer(params.channels.size() * 4, "reduce result buffer");
  if (!result) return result.error();
  r.result_ = std::move(result.value());
  // The finish counter (and 3 words of padding), then a partial per workgroup and channel. The
  // counter must start at zero; the last workgroup of every run leaves it so.
  // With accumulators: the counter, then each accumulator's {min, max, lo, hi} at its start
  // value {0xffffffff, 0, 0, 0}.
  const size_t slots =
      params.accumulators > 0 ? size_t(params.accumulators) : size_t(params.workgroups);
  const size_t partial_words = 4 + slots * params.channels.size() * 4;
  Result<GlBuffer> partials = makeStorageBuffer(partial_words, "reduce partials buffer");
  if (!partials) return partials.error();
  r.partials_ = std::move(partials.value());
  std::vector<uint32_t> start(partial_words, 0);
  if (params.accumulators > 0)
    for (size_t i = 4; i < partial_words; i += 4) start[i] = ~0u;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, r.partials_.get());
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(start.size() * 4), start.data());
  if (Status s = checkGl("reduce partials"); !s) return s.error();
  return r;
}

Result<GlProgram> ImageReduce::compile(int carry) const {
  ShaderDefines d;
  d.set("CHANNELS", int64_t(params_.channels.size()))
      .set("LUMA_601", params_.luma == LumaWeights::kBt601 ? 1 : 0)
      .set("SOURCE_BUFFER", params_.source == ImageSource::kPackedBuffer ? 1 : 0)
      .set("WG_X", params_.workgroup_size)
      .set("QUADS", params_.pixels_per_invocation / 4)
      .set("CARRY", carry < 0 ? 1 : carry)
      .set("SUBGROUP", params_.subgroups ? 1 : 0)
      .set("ACCUMULATORS", params_.accumulators)
      .set("BATCH_LOADS", params_.batch_loads ? 1 : 0);
  for (size_t k = 0; k < 4; ++k)
    d.set("CHANNEL" + std::to_string(k),
          k < params_.channels.size() ? channelCode(params_.channels[k]) : 0);
  if (params_.subgroups) return compileWithSubgroups(d);
  return ShaderLibrary::builtin().compute("reduce.comp", d);
}

Status ImageReduce::poison(uint32_t pattern) {
  return fillBuffer(result_.get(), params_.channels.size() * 4, pattern, "reduce poison");
}

Status ImageReduce::run(const GpuImage& image) {
  const bool texture_source = params_.source == ImageSource::kTexture;
  if (Status s = checkSourceForm(kReduceStage, texture_source, true); !s) return s;
  return runImpl(image.width(), image.height(), image.texture(), 0);
}

Status ImageReduce::run(const PackedRgbaBuffer& image) {
  const bool texture_source = params_.source == ImageSource::kTexture;
  if (Status s = checkSourceForm(kReduceStage, texture_source, false); !s) return s;
  return runImpl(image.width(), image.height(), 0, image.buffer());
}

Status ImageReduce::runImpl(int width, int height, GLuint texture, GLuint buffer) {
  const int64_t threads = int64_t(params_.workgroups) * params_.workgroup_size;
  const int64_t pixels = int64_t(width) * height, quads = pixels / 4;
  const int64_t per_step = params_.pixels_per_invocation / 4;
  const int64_t steps = (quads + threads * per_step - 1) / (threads * per_step);
  // Loops of the busiest invocation: the grid-stride steps (quad loops of more than 16 are not
  // unrolled), the tail (3), and the tree (channels x log2 workgroup size).
  int64_t tree = 0;
  for (int64_t s = 1; s < params_.workgroup_size; s <<= 1) ++tree;
  const int64_t channels = int64_t(params_.channels.size());
  // The tree's levels each loop over the channels; the finish also gathers the partials.
  const int64_t finish =
      channels * ((params_.workgroups + params_.workgroup_size - 1) / params_.workgroup_size + 1) +
      tree * (channels + 1) + channels + 2 * channels;  // + the accumulators' two loops
  const int64_t loops =
      steps * (per_step > 16 ? per_step + 1 : 1) + 3 + tree * (channels + 1) + channels + finish;
  if (Status s = checkLoopIterations(*gl_, kReduceStage, loops,
                                     "raise workgroups * workgroup_size * pixels_per_invocation");
      !s)
    return s;
  // An invocation's private sum needs no carry when it cannot pass 2^32 (its busiest count:
  // steps * per_step quads of 4 pixels, plus the tail, at 255 each).
  const int carry = (steps * per_step * 4 + 3) * 255 >= (int64_t(1) << 32) ? 1 : 0;
  if (carry != carry_) {
    Result<GlProgram> program = compile(carry);
    if (!program) return program.error();
    program_ = std::move(program.value());
    carry_ = carry;
  }
  // The previous run's stores and its reset of the counter before this run's.
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  glUseProgram(program_.get());
  bindSourceImage(program_.get(), texture, buffer);
  if (buffer) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, buffer);  // the tail, as words
  glUniform2i(glGetUniformLocation(program_.get(), "u_size"), width, height);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, result_.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, partials_.get());
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
