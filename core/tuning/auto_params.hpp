#pragma once
// strategy=auto: the stage parameters for this GPU and frame size. The tuning cache when it
// holds an entry for this GPU, driver and size class (`esframe tune` wrote it), else defaults
// per vendor, measured (bench/RESULTS.md):
//   llvmpipe  persistent, ONE workgroup of ONE invocation with plain shared counts: llvmpipe
//             runs a workgroup's invocations as SIMD lanes of one thread, so atomics and
//             merges only cost (3 ms against 56-95 ms at 1080p, field-facts section 2)
//   NVIDIA    persistent on the packed buffer, wide workgroups (measured on an H200)
//   others    the v3d-safe defaults of each stage (<=256 invocations, <=32 KB shared)
// `why` gets one line saying which and where from, for the log and `esframe info`.
#include <string>

#include "blur.hpp"
#include "gl_context.hpp"
#include "histogram.hpp"

namespace esf {

// `base` supplies what is not tuned (bins, channels, luma); the result keeps them.
// cache_path "" means TuningCache::defaultPath().
HistogramParams chooseHistogramParams(const GlContext& gl, int width, int height, std::string* why,
                                      const HistogramParams& base = {},
                                      const std::string& cache_path = "");
BlurParams chooseBlurParams(const GlContext& gl, int width, int height, std::string* why,
                            const BlurParams& base = {}, const std::string& cache_path = "");

// The per-vendor defaults alone (no cache).
HistogramParams vendorHistogramDefaults(const GlContext& gl, const HistogramParams& base,
                                        std::string* why);
BlurParams vendorBlurDefaults(const GlContext& gl, const BlurParams& base, std::string* why);

bool isNvidia(const GlContext& gl);

}  // namespace esf
