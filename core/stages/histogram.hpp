#pragma once
// The histogram stage: `bins` bins (1..256) of any channel list ("rgbl", "l", ...) in one pass.
//
// Output buffer layout (binsBuffer(), std430 uint array, bins * channels.size() words):
//   counts[bin * channels.size() + c], c = index of the channel in params.channels,
// i.e. interleaved per bin, a bin's channel counts side by side (for "rgbl": [bin][r g b l]).
// Bin of an 8-bit value v: (v * bins) >> 8. Luma: integer BT.709 or BT.601 (channels.hpp).
// The buffer is allocated rounded up to a multiple of 4 words (the tail is unspecified), so a
// fragment shader without SSBO access can bind it as a uniform block
// `layout(std140) uniform Bins { uvec4 words[(bins * channels + 3) / 4]; }` and read word i as
// words[i >> 2][i & 3] (std140 pads a uint array to 16 bytes per element, a uvec4 array not).
//
// Strategies (identical counts; the fastest one differs per GPU: bench/results/ has the sweeps):
//   single        one invocation loops over every pixel (the plainest form, for reference)
//   global-atomic one invocation per pixel, atomicAdd into the output
//   chunk-sum     one workgroup per tile_width x tile_height tile counts into shared memory and
//                 writes its own chunk; then one invocation per output word sums all chunks
//   chunk-reduce  the same chunks, then ChunkReduce's strided pairwise passes
//   persistent    `workgroups` workgroups walk the image in a grid-stride loop, each into a
//                 privatized shared histogram, then merge once with atomics (OpenCV OpenCL,
//                 CUB). workgroup_size 1 with shared_atomics=false (non-atomic shared
//                 counts) is reachable for sweeping; note that llvmpipe silently ends an
//                 invocation's loops after 65535 iterations, so such long-looping shapes are
//                 refused there (stage_limits.hpp) instead of returning short counts.
//   replicated    persistent's grid-stride loop over quads of 4 consecutive pixels (one 16-byte
//                 uvec4 load from the packed buffer; 4 texelFetches without a division from the
//                 texture), counted into `replicas` sub-histograms per workgroup in shared
//                 memory (replica = invocation index % replicas, each padded to an odd word
//                 stride against bank conflicts), merged once at the end. With run_length,
//                 equal bins among a quad's 4 pixels add with one atomic (flat, gradient).
//                 With planar, each sub-histogram is channel-major in shared memory (word
//                 k * bins + bin instead of bin * channels + k), so neighbouring bins of one
//                 channel fall on neighbouring banks: a warp voting into a narrow range of
//                 values (a photo's smooth areas) conflicts less. The output layout is the same.
//                 pixels_per_invocation counts pixels per step: a multiple of 4. The output
//                 needs no clear per run: the last workgroup to finish moves an internal
//                 accumulator into it and resets the accumulator (one dispatch, no upload).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/channels.hpp"
#include "core/image/gpu_image.hpp"
#include "core/stages/chunk_reduce.hpp"
#include "core/stages/stage_gl.hpp"
#include "esframe/base/result.hpp"
#include "esframe/pipeline_config.hpp"
#include "platform/gl_context.hpp"

namespace esf {

// HistogramStrategy (esframe/pipeline_config.hpp) names the strategies above.

// Where a stage reads the working image from.
enum class ImageSource { kTexture, kPackedBuffer };
const char* imageSourceName(ImageSource s);  // "texture" | "buffer"
Result<ImageSource> parseImageSource(std::string_view name);

struct HistogramParams {
  int bins = 256;
  std::string channels = "rgbl";
  LumaWeights luma = LumaWeights::kBt709;
  HistogramStrategy strategy = HistogramStrategy::kPersistent;
  ImageSource source = ImageSource::kTexture;

  // global-atomic, chunk-sum, chunk-reduce: the workgroup is tile_width x tile_height
  // invocations, one pixel each; a chunk is one workgroup's tile (by default 256 x 1).
  int tile_width = 256;
  int tile_height = 1;
  // chunk-sum and chunk-reduce: invocations per workgroup of the summing pass.
  int sum_workgroup_size = 256;

  // persistent
  int workgroups = 16;            // N, the dispatch size
  int workgroup_size = 256;       // invocations per workgroup (1D)
  int pixels_per_invocation = 4;  // per grid-stride step (unroll)
  bool shared_atomics = true;     // false is allowed only with workgroup_size 1

  // replicated (also uses workgroups, workgroup_size and pixels_per_invocation): shared
  // sub-histograms per workgroup, replicas * (words | 1) * 4 bytes of shared memory (4 fit
  // v3d's 32 KB for rgbl 256 bins), and run-length aggregation within each quad.
  int replicas = 4;
  bool run_length = true;
  bool planar = false;  // channel-major sub-histograms in shared memory
  // replicated from the packed buffer: a step reads all its quads before counting them (its
  // 16-byte loads in flight together), where the whole step is inside the image.
  bool batch_loads = false;

  // v3d-safe defaults (<=256 invocations, <=32 KB shared, multiples of 16), clamped to this
  // context's limits. Per-vendor tuning (bench/tune) starts from here.
  static HistogramParams defaultsFor(const GlContext& gl);
  // Everything checkable without a GPU plus the driver's limits; one-line errors.
  Status validate(const ComputeLimits& limits) const;

  int channelCount() const { return int(channels.size()); }
  size_t wordCount() const { return size_t(bins) * channels.size(); }
  // Shared memory of the counting workgroup, in bytes.
  int64_t sharedBytes() const;
};

class Histogram {
 public:
  // Validates the parameters and compiles the programs.
  static Result<Histogram> create(const GlContext& gl, const HistogramParams& params);

  // Counts the image into binsBuffer(). The source form must match params().source.
  // Issues the barrier bits after the last dispatch so the buffer can be read by shaders,
  // mapped, or used as a uniform/vertex source.
  Status run(const GpuImage& image);
  Status run(const PackedRgbaBuffer& image);

  // The counts (layout above) from the last run, mapped back to the CPU.
  Result<std::vector<uint32_t>> read() const;
  // Where read() reads them, for a frame's one read-back (the words are the counts as they are).
  GpuWords resultWords() const { return {bins_.get(), 0, params_.wordCount()}; }
  GLuint binsBuffer() const { return bins_.get(); }
  const HistogramParams& params() const { return params_; }

  // Checks a width x height image against the driver's limits with these parameters (workgroup
  // counts, loop lengths, the chunk buffer's size) and sizes the scratch buffers for it, so that
  // run() on an image of that size fails only on the GPU itself.
  Status fitFrame(int width, int height);

  // Testing aid: fills the output and every scratch buffer sized for width x height with
  // `pattern`, so words a run fails to write show up.
  Status poison(int width, int height, uint32_t pattern);

 private:
  Histogram() = default;
  Status runImpl(int width, int height, GLuint texture, GLuint buffer);
  // The counting dispatch's workgroups for a width x height image.
  void dispatchGroups(int width, int height, int64_t& groups_x, int64_t& groups_y) const;
  Status ensureChunks(size_t chunk_count);
  Status prepareInjectedFault();
  static bool injectedWorkgroupFault();

  const GlContext* gl_ = nullptr;
  HistogramParams params_;
  GlProgram count_;                      // the counting program of the chosen strategy
  GlProgram sum_;                        // chunk-sum: sums chunks into the output
  std::unique_ptr<ChunkReduce> reduce_;  // chunk-reduce
  GlBuffer bins_;
  GlBuffer acc_;  // replicated: the accumulator and its finish counter (histogram.comp)
  GlBuffer chunks_;
  size_t chunk_capacity_ = 0;  // chunks the buffer holds
  GlProgram fault_;            // ESFRAME_TEST_GPU_FAULT=histogram: a deliberate miscount
};

}  // namespace esf
