#include "core/stages/histogram.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/api_guard.hpp"
#include "core/stages/stage_gl.hpp"
#include "core/stages/stage_limits.hpp"
#include "esframe/base/log.hpp"
#include "platform/shader_library.hpp"

namespace esf {
#if ESF_FAULT_INJECTION
// tests/support/shaders/ (core/stages/CMakeLists.txt).
extern const EmbeddedFile esf_fault_shaders[];
extern const std::size_t esf_fault_shaders_count;
#endif

namespace {

constexpr const char* kHistogramStage = "histogram";

// The STRATEGY define of glsl_es/histogram.comp.
int shaderStrategy(HistogramStrategy s) {
  switch (s) {
    case HistogramStrategy::kSingle:
      return 0;
    case HistogramStrategy::kGlobalAtomic:
      return 1;
    case HistogramStrategy::kChunkSum:
    case HistogramStrategy::kChunkReduce:
      return 2;
    case HistogramStrategy::kPersistent:
      return 3;
    case HistogramStrategy::kReplicated:
      return 4;
  }
  return 3;
}

bool usesChunks(HistogramStrategy s) {
  return s == HistogramStrategy::kChunkSum || s == HistogramStrategy::kChunkReduce;
}

// The counting workgroup's shape.
void countWorkgroup(const HistogramParams& p, int& x, int& y) {
  x = y = 1;
  if (p.strategy == HistogramStrategy::kPersistent || p.strategy == HistogramStrategy::kReplicated)
    x = p.workgroup_size;
  if (p.strategy == HistogramStrategy::kGlobalAtomic || usesChunks(p.strategy)) {
    x = p.tile_width;
    y = p.tile_height;
  }
}

int64_t ceilDiv(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

// Mesa unrolls constant-trip loops this short (llvmpipe unrolls 16 trips, not 64);
// longer ones count every iteration against llvmpipe's loop limit.
constexpr int kUnrolledTrips = 16;

// Loop iterations of the busiest invocation (stage_limits.hpp: llvmpipe's loop limit), with
// a hint for the message when it is too many.
int64_t busiestInvocationLoops(const HistogramParams& p, int64_t width, int64_t height,
                               int64_t chunk_count, const char*& hint) {
  const int64_t words = int64_t(p.wordCount()), pixels = width * height;
  switch (p.strategy) {
    case HistogramStrategy::kSingle:
      hint = "use another strategy for frames this large";
      return words + height + pixels;
    case HistogramStrategy::kGlobalAtomic:
      return 0;
    case HistogramStrategy::kChunkSum:
    case HistogramStrategy::kChunkReduce:
      hint = "use larger tiles (fewer chunks) or the persistent strategy";
      return std::max(2 * ceilDiv(words, int64_t(p.tile_width) * p.tile_height),
                      p.strategy == HistogramStrategy::kChunkSum
                          ? chunk_count
                          : ceilDiv(words, p.sum_workgroup_size));
    case HistogramStrategy::kPersistent: {
      hint = "raise workgroups * workgroup_size * pixels_per_invocation";
      int64_t steps =
          ceilDiv(pixels, int64_t(p.workgroups) * p.workgroup_size * p.pixels_per_invocation);
      int64_t per_step = p.pixels_per_invocation > kUnrolledTrips ? p.pixels_per_invocation + 1 : 1;
      return 2 * ceilDiv(words, p.workgroup_size) + steps * per_step;
    }
    case HistogramStrategy::kReplicated: {
      hint = "raise workgroups * workgroup_size * pixels_per_invocation";
      const int64_t quads = pixels / 4, per_step_quads = p.pixels_per_invocation / 4;
      int64_t steps = ceilDiv(quads, int64_t(p.workgroups) * p.workgroup_size * per_step_quads);
      int64_t per_step = per_step_quads > kUnrolledTrips ? per_step_quads + 1 : 1;
      int64_t clear = ceilDiv(p.sharedBytes() / 4, p.workgroup_size);
      int64_t merge = ceilDiv(words, p.workgroup_size) * (p.replicas + 2);  // + the move
      return clear + steps * per_step + 3 + merge;
    }
  }
  return 0;
}

}  // namespace

const char* imageSourceName(ImageSource s) {
  return s == ImageSource::kTexture ? "texture" : "buffer";
}

Result<ImageSource> parseImageSource(std::string_view name) {
  if (name == "texture") return ImageSource::kTexture;
  if (name == "buffer") return ImageSource::kPackedBuffer;
  return fail(ErrorCode::kInvalidArgument, "unknown image source '", name, "' (texture or buffer)");
}

HistogramParams HistogramParams::defaultsFor(const GlContext& gl) {
  HistogramParams p;
  // Persistent with one workgroup per ~compute unit is the shape that wins on SBC GPUs; the
  // sizes below fit v3d and stay within any GLES 3.1 driver's minimums where possible.
  const ComputeLimits& l = gl.limits();
  int invocations = std::min({kV3dMaxInvocations, l.work_group_invocations, l.work_group_size[0]});
  invocations = std::max(kV3dSubgroupWidth, invocations - invocations % kV3dSubgroupWidth);
  p.workgroup_size = std::min(p.workgroup_size, invocations);
  p.sum_workgroup_size = std::min(p.sum_workgroup_size, invocations);
  p.tile_width = std::min(p.tile_width, invocations);
  return p;
}

int64_t HistogramParams::sharedBytes() const {
  const int64_t words = int64_t(wordCount());
  if (strategy != HistogramStrategy::kReplicated) return words * 4;
  // An odd stride per replica (glsl_es/histogram.comp REP_STRIDE).
  int64_t stride = (words % 2 == 0 && replicas > 1) ? words + 1 : words;
  return stride * replicas * 4;
}

Status HistogramParams::validate(const ComputeLimits& limits) const {
  if (Status s = checkRange(kHistogramStage, "bins", bins, 1, 256); !s) return s;
  if (Status s = validateChannels(channels); !s)
    return fail(s.error().code, kHistogramStage, ": ", s.error().message);
  int64_t shared = sharedBytes();
  switch (strategy) {
    case HistogramStrategy::kSingle:
      return {};
    case HistogramStrategy::kGlobalAtomic:
      return checkWorkgroup(limits, "histogram global-atomic", tile_width, tile_height, 0);
    case HistogramStrategy::kChunkSum:
    case HistogramStrategy::kChunkReduce:
      if (Status s =
              checkWorkgroup(limits, "histogram chunk tile", tile_width, tile_height, shared);
          !s)
        return s;
      return checkWorkgroup(limits, "histogram chunk sum", sum_workgroup_size, 1, 0);
    case HistogramStrategy::kPersistent:
      if (Status s =
              checkRange(kHistogramStage, "workgroups", workgroups, 1, limits.work_group_count[0]);
          !s)
        return s;
      if (Status s =
              checkRange(kHistogramStage, "pixels_per_invocation", pixels_per_invocation, 1, 256);
          !s)
        return s;
      // The grid-stride step (groups * size * ppi) is a 32-bit uint in the shader.
      if (int64_t(workgroups) * workgroup_size * pixels_per_invocation >= (int64_t(1) << 31))
        return fail(ErrorCode::kInvalidArgument, kHistogramStage,
                    ": workgroups * workgroup_size * pixels_per_invocation must stay "
                    "below 2^31");
      if (!shared_atomics && workgroup_size != 1)
        return fail(ErrorCode::kInvalidArgument, kHistogramStage,
                    ": shared_atomics=false needs workgroup_size 1 (got ",
                    std::to_string(workgroup_size), "): non-atomic shared counts would race");
      return checkWorkgroup(limits, "histogram persistent", workgroup_size, 1, shared);
    case HistogramStrategy::kReplicated:
      if (Status s =
              checkRange(kHistogramStage, "workgroups", workgroups, 1, limits.work_group_count[0]);
          !s)
        return s;
      if (pixels_per_invocation % 4 != 0 || pixels_per_invocation < 4 ||
          pixels_per_invocation > 256)
        return fail(ErrorCode::kInvalidArgument, kHistogramStage,
                    ": replicated counts quads of 4 pixels: pixels_per_invocation must be "
                    "a multiple of 4 in [4, 256], got ",
                    std::to_string(pixels_per_invocation));
      if (Status s = checkRange(kHistogramStage, "replicas", replicas, 1, 64); !s) return s;
      if (int64_t(workgroups) * workgroup_size * pixels_per_invocation >= (int64_t(1) << 31))
        return fail(ErrorCode::kUnsupported, kHistogramStage,
                    ": workgroups * workgroup_size * pixels_per_invocation must stay "
                    "below 2^31");
      return checkWorkgroup(limits, "histogram replicated", workgroup_size, 1, shared);
  }
  return {};
}

Result<Histogram> Histogram::create(const GlContext& gl, const HistogramParams& params) {
  if (Status s = params.validate(gl.limits()); !s) return s.error();
  Histogram h;
  h.gl_ = &gl;
  h.params_ = params;
  int wg_x = 1, wg_y = 1;
  countWorkgroup(params, wg_x, wg_y);
  if (injectedWorkgroupFault()) {
    wg_x = 2 * gl.limits().work_group_size[0];
    wg_y = 1;
  }
  ShaderDefines d;
  d.set("STRATEGY", shaderStrategy(params.strategy))
      .set("BINS", params.bins)
      .set("CHANNELS", params.channelCount())
      .set("LUMA_601", params.luma == LumaWeights::kBt601 ? 1 : 0)
      .set("SOURCE_BUFFER", params.source == ImageSource::kPackedBuffer ? 1 : 0)
      .set("WG_X", wg_x)
      .set("WG_Y", wg_y)
      .set("PIXELS_PER_INVOCATION", params.pixels_per_invocation)
      .set("SHARED_ATOMICS", params.shared_atomics ? 1 : 0)
      .set("REPLICAS", params.replicas)
      .set("RUN_LENGTH", params.run_length ? 1 : 0)
      .set("PLANAR", params.planar ? 1 : 0)
      .set("BATCH_LOADS", params.batch_loads ? 1 : 0);
  for (int k = 0; k < 4; ++k)
    d.set("CHANNEL" + std::to_string(k),
          k < params.channelCount() ? channelCode(params.channels[size_t(k)]) : 0);
  Result<GlProgram> count = ShaderLibrary::builtin().compute("histogram.comp", d);
  if (!count) return count.error();
  h.count_ = std::move(count.value());
  if (params.strategy == HistogramStrategy::kChunkSum) {
    Result<GlProgram> sum = ShaderLibrary::builtin().compute(
        "histogram_chunk_sum.comp", ShaderDefines()
                                        .set("WORDS", int64_t(params.wordCount()))
                                        .set("WG_X", params.sum_workgroup_size));
    if (!sum) return sum.error();
    h.sum_ = std::move(sum.value());
  }
  if (params.strategy == HistogramStrategy::kChunkReduce) {
    Result<ChunkReduce> reduce =
        ChunkReduce::create(gl, uint32_t(params.wordCount()), params.sum_workgroup_size);
    if (!reduce) return reduce.error();
    h.reduce_ = std::make_unique<ChunkReduce>(std::move(reduce.value()));
  }
  if (Status s = h.prepareInjectedFault(); !s) return s.error();
  // Rounded up to whole uvec4s so the buffer also binds as a std140 uniform block.
  Result<GlBuffer> bins =
      makeStorageBuffer((params.wordCount() + 3) / 4 * 4, "histogram output buffer");
  if (!bins) return bins.error();
  h.bins_ = std::move(bins.value());
  if (params.strategy == HistogramStrategy::kReplicated) {
    // replicated's accumulator: `done` then the words, zero between runs (the shader resets it).
    Result<GlBuffer> acc = makeStorageBuffer(params.wordCount() + 1, "histogram accumulator");
    if (!acc) return acc.error();
    h.acc_ = std::move(acc.value());
    if (Status s = fillBuffer(h.acc_.get(), params.wordCount() + 1, 0, "histogram accumulator"); !s)
      return s.error();
  }
  return h;
}

Status Histogram::ensureChunks(size_t chunk_count) {
  if (chunk_count <= chunk_capacity_) return {};
  size_t bytes = chunk_count * params_.wordCount() * 4;
  if (bytes > size_t(gl_->limits().max_ssbo_size))
    return fail(ErrorCode::kUnsupported, kHistogramStage, ": ", std::to_string(chunk_count),
                " chunks need ", std::to_string(bytes),
                " bytes, more than the driver's GL_MAX_SHADER_STORAGE_BLOCK_SIZE ",
                std::to_string(gl_->limits().max_ssbo_size), " (use larger tiles or persistent)");
  Result<GlBuffer> chunks =
      makeStorageBuffer(chunk_count * params_.wordCount(), "histogram chunk buffer");
  if (!chunks) return chunks.error();
  chunks_ = std::move(chunks.value());
  chunk_capacity_ = chunk_count;
  return {};
}

Status Histogram::poison(int width, int height, uint32_t pattern) {
  if (Status s = fillBuffer(bins_.get(), params_.wordCount(), pattern, "histogram poison"); !s)
    return s;
  if (!usesChunks(params_.strategy)) return {};
  size_t chunks = size_t(ceilDiv(width, params_.tile_width) * ceilDiv(height, params_.tile_height));
  if (Status s = ensureChunks(chunks); !s) return s;
  return fillBuffer(chunks_.get(), chunk_capacity_ * params_.wordCount(), pattern,
                    "histogram chunk poison");
}

Status Histogram::run(const GpuImage& image) {
  const bool texture_source = params_.source == ImageSource::kTexture;
  if (Status s = checkSourceForm(kHistogramStage, texture_source, true); !s) return s;
  return runImpl(image.width(), image.height(), image.texture(), 0);
}

Status Histogram::run(const PackedRgbaBuffer& image) {
  const bool texture_source = params_.source == ImageSource::kTexture;
  if (Status s = checkSourceForm(kHistogramStage, texture_source, false); !s) return s;
  return runImpl(image.width(), image.height(), 0, image.buffer());
}

void Histogram::dispatchGroups(int width, int height, int64_t& groups_x, int64_t& groups_y) const {
  const HistogramStrategy strategy = params_.strategy;
  groups_x = groups_y = 1;
  if (strategy == HistogramStrategy::kGlobalAtomic || usesChunks(strategy)) {
    groups_x = ceilDiv(width, params_.tile_width);
    groups_y = ceilDiv(height, params_.tile_height);
  } else if (strategy == HistogramStrategy::kPersistent ||
             strategy == HistogramStrategy::kReplicated) {
    groups_x = params_.workgroups;
  }
}

Status Histogram::fitFrame(int width, int height) {
  const HistogramStrategy strategy = params_.strategy;
  int64_t groups_x = 1, groups_y = 1;
  dispatchGroups(width, height, groups_x, groups_y);
  if (Status s = checkDispatch(gl_->limits(), kHistogramStage, groups_x, groups_y); !s) return s;
  const size_t chunk_count = size_t(groups_x * groups_y);
  const char* hint = "";
  int64_t loops = busiestInvocationLoops(params_, width, height, int64_t(chunk_count), hint);
  if (Status s = checkLoopIterations(
          *gl_, std::string("histogram ") + histogramStrategyName(strategy), loops, hint);
      !s)
    return s;
  if (usesChunks(strategy)) return ensureChunks(chunk_count);
  return {};
}

Status Histogram::runImpl(int width, int height, GLuint texture, GLuint buffer) {
  const HistogramStrategy strategy = params_.strategy;
  if (Status s = fitFrame(width, height); !s) return s;
  int64_t groups_x = 1, groups_y = 1;
  dispatchGroups(width, height, groups_x, groups_y);
  const int64_t chunk_count = groups_x * groups_y;
  // Strategies that add into the output start from zero; single clears it itself, the chunk
  // strategies overwrite every word.
  if (strategy == HistogramStrategy::kGlobalAtomic || strategy == HistogramStrategy::kPersistent) {
    if (Status s = fillBuffer(bins_.get(), params_.wordCount(), 0, "histogram clear"); !s) return s;
  }

  glUseProgram(count_.get());
  bindSourceImage(count_.get(), texture, buffer);
  // replicated reads the packed buffer as uvec4 quads (binding 1) and its tail as words.
  if (buffer && strategy == HistogramStrategy::kReplicated)
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, buffer);
  glUniform2i(glGetUniformLocation(count_.get(), "u_size"), width, height);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, usesChunks(strategy) ? chunks_.get() : bins_.get());
  if (strategy == HistogramStrategy::kReplicated) {
    // The previous run's last workgroup reset acc: order that before this run's adds.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, acc_.get());
  }
  glDispatchCompute(GLuint(groups_x), GLuint(groups_y), 1);

  if (strategy == HistogramStrategy::kChunkSum) {
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // chunks written -> read by the sum
    glUseProgram(sum_.get());
    glUniform1ui(glGetUniformLocation(sum_.get(), "u_chunk_count"), GLuint(chunk_count));
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, chunks_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, bins_.get());
    glDispatchCompute(GLuint(ceilDiv(int64_t(params_.wordCount()), params_.sum_workgroup_size)), 1,
                      1);
  } else if (strategy == HistogramStrategy::kChunkReduce) {
    if (Status s = reduce_->run(chunks_.get(), uint32_t(chunk_count)); !s) return s;
    // ChunkReduce ends with a buffer-update barrier: chunk 0 is ready to copy.
    glBindBuffer(GL_COPY_READ_BUFFER, chunks_.get());
    glBindBuffer(GL_COPY_WRITE_BUFFER, bins_.get());
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0,
                        GLsizeiptr(params_.wordCount() * 4));
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  }
  if (fault_) {  // a test build's deliberately wrong driver (prepareInjectedFault)
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glUseProgram(fault_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, bins_.get());
    glDispatchCompute(1, 1, 1);
  }
  glMemoryBarrier(kStorageWrittenBarrier);
  return checkGl("histogram dispatch");
}

// ESFRAME_FAULT_INJECTION builds only: ESFRAME_TEST_GPU_FAULT=histogram-workgroup builds the
// counting program with a workgroup twice as wide as the driver's limit, which the driver's
// compiler refuses, so that the tests can show a refused program failing `--backend gles` with
// one line and `--backend auto` falling back to the executor (tests/boards). Other builds
// ignore it.
bool Histogram::injectedWorkgroupFault() {
#if ESF_FAULT_INJECTION
  const char* fault = std::getenv("ESFRAME_TEST_GPU_FAULT");
  return fault && std::string_view(fault) == "histogram-workgroup";
#else
  return false;
#endif
}

// ESFRAME_FAULT_INJECTION builds only: ESFRAME_TEST_GPU_FAULT=histogram makes every run add one
// count to the output's first word on the GPU, so that the tests can show `esframe selftest`
// catching a driver that miscounts, and `--backend auto` refusing it. Other builds ignore it.
Status Histogram::prepareInjectedFault() {
#if ESF_FAULT_INJECTION
  const char* fault = std::getenv("ESFRAME_TEST_GPU_FAULT");
  if (!fault || std::string_view(fault) != "histogram") return {};
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true))
    logWarning("ESFRAME_TEST_GPU_FAULT=histogram: the GPU histogram miscounts on purpose (a test)");
  const ShaderLibrary fault_shaders({esf_fault_shaders, esf_fault_shaders_count});
  Result<GlProgram> program = fault_shaders.compute("fault_miscount.comp");
  if (!program) return program.error();
  fault_ = std::move(program.value());
#endif
  return {};
}

Result<std::vector<uint32_t>> Histogram::read() const {
  return readWords(bins_.get(), params_.wordCount(), "histogram read-back");
}

}  // namespace esf
