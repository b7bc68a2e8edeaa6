#pragma once
// The histogram's display scale on the GPU: per channel
//   scale = max(1 / maxCount, 0.2 * bins / pixels)
// which is one rational, bins / min(maxCount * bins, 5 * pixels), evaluated exactly in
// integers and rounded once to the nearest float32 (ties to even) by integer long division,
// in the shader and in the CPU reference alike: the two agree bit for bit on every GPU.
//
// Output buffer layout (scaleBuffer(), std430, for the graph renderer): per channel of the
// histogram, in the histogram's channel order, 4 words:
//   struct ChannelScale { uint maxCount; uint numerator; uint denominator; float scale; };
//   layout(std430) buffer Scale { ChannelScale scales[]; };
// The buffer always holds 4 entries (64 bytes); std140 lays this struct array out the same,
// so a renderer may also bind it as `layout(std140) uniform Scale { ChannelScale scales[4]; }`.
// numerator = bins, denominator = min(maxCount * bins, 5 * pixels), scale = numerator /
// denominator rounded. A bar of count n is n * scale of the graph height; a renderer
// that wants exact integer heights can compare n * numerator against y * denominator.
#include <cstdint>
#include <span>
#include <vector>

#include "core/stages/histogram.hpp"
#include "core/stages/stage_gl.hpp"
#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct ChannelScale {
  uint32_t max_count = 0;
  uint32_t numerator = 0;
  uint32_t denominator = 0;
  float scale = 0;
  bool operator==(const ChannelScale& o) const;  // compares the float's bits
};

// How the shader finds each channel's largest count: one invocation per channel looping over
// the bins (llvmpipe, where the tree's 256 invocations and 8 barriers cost several times the
// loop), or 256 invocations reducing a tree in shared memory (GPUs, where 4 invocations wait on
// one load after another: the loop takes several times the tree). Figures:
// bench/results/llvmpipe-2core-stages.md, bench/results/h200-stages.md.
enum class ScaleForm { kAuto, kLoop, kTree };

class HistogramScale {
 public:
  // kAuto: the loop on llvmpipe, the tree elsewhere.
  static Result<HistogramScale> create(const GlContext& gl, ScaleForm form = ScaleForm::kAuto);
  // bins_buffer: a Histogram's output (bins * channels words). pixels: the image's pixel count
  // (1 .. 2^31 / 5, so 5 * pixels fits the 32-bit long division).
  Status run(GLuint bins_buffer, int bins, int channels, uint64_t pixels);
  Status run(const Histogram& histogram, uint64_t pixels);

  Result<std::vector<ChannelScale>> read(int channels) const;
  // Where read() reads `channels` scales, and the scales from those words.
  GpuWords resultWords(int channels) const { return {scale_.get(), 0, size_t(channels) * 4}; }
  static std::vector<ChannelScale> scalesOf(std::span<const uint32_t> words);
  GLuint scaleBuffer() const { return scale_.get(); }
  Status poison(uint32_t pattern);  // testing aid

 private:
  HistogramScale() = default;
  const GlContext* gl_ = nullptr;
  GlProgram program_;
  GlBuffer scale_;
};

}  // namespace esf
