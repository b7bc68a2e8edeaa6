#pragma once
// strategy=auto: the stage parameters for this GPU and frame size. The tuning cache when it
// holds an entry for this GPU, driver and size class (`esframe tune` wrote it), else defaults
// per vendor, chosen by the bench's sweeps (bench/results/llvmpipe-2core-stages.md,
// bench/results/h200-stages.md):
//   llvmpipe  blur: the sliding window, segments of 32, 64 lines (its cost does not grow with
//             the taps, where the tiled form's does)
//             histogram: persistent, 64 invocations x 128 workgroups on the texture (the 1080p
//             sweep's winner). NOT one invocation over the frame: llvmpipe ends every invocation
//             after 65535 loop iterations and drops the rest silently, so a single invocation
//             counts only part of a large frame; the stage refuses that shape for large frames
//   NVIDIA    replicated histogram on the packed buffer, 1024 x 256, 4 sub-histograms; the
//             split blur through a packed buffer (16 x 64 tiles, columns of 32); reduce
//             128 x 512 on the packed buffer, 16 pixels a step, loads batched (H200 sweeps)
//   others    the v3d-safe defaults of each stage (<=256 invocations, <=32 KB shared); the blur
//             fused at the stage's tile (the boards' compilers: bench/boards/compilers.md)
// `why` gets one line saying which and where from, for the log and `esframe info`.
#include <string>

#include "core/stages/blur.hpp"
#include "core/stages/histogram.hpp"
#include "core/stages/reduce.hpp"
#include "platform/gl_context.hpp"

namespace esf {

// `base` supplies what is not tuned (bins, channels, luma); the result keeps them.
// cache_path "" means TuningCache::defaultPath().
HistogramParams chooseHistogramParams(const GlContext& gl, int width, int height, std::string* why,
                                      const HistogramParams& base = {},
                                      const std::string& cache_path = "");
BlurParams chooseBlurParams(const GlContext& gl, int width, int height, std::string* why,
                            const BlurParams& base = {}, const std::string& cache_path = "");

ReduceParams chooseReduceParams(const GlContext& gl, int width, int height, std::string* why,
                                const ReduceParams& base = {}, const std::string& cache_path = "");

// The per-vendor defaults alone (no cache).
ReduceParams vendorReduceDefaults(const GlContext& gl, const ReduceParams& base, std::string* why);
HistogramParams vendorHistogramDefaults(const GlContext& gl, const HistogramParams& base,
                                        std::string* why);
BlurParams vendorBlurDefaults(const GlContext& gl, const BlurParams& base, std::string* why);

bool isNvidia(const GlContext& gl);

}  // namespace esf
