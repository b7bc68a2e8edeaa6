#pragma once
#include <nlohmann/json.hpp>
// Rows for one frame: each esframe stage (checked once against its CPU reference, then timed),
// the CPU references, the peers, the transfers and the end-to-end frame rate.
#include <string>
#include <vector>

#include "bench/bench_report.hpp"
#include "core/stages/blur.hpp"
#include "core/stages/histogram.hpp"
#include "core/stages/reduce.hpp"
#include "platform/gl_context.hpp"

namespace esf::bench {

// --histogram-variants: extra histogram rows, each its own parameters over the tuned (or auto)
// ones, each checked against the CPU reference before it is timed.
struct HistogramVariant {
  std::string name;
  nlohmann::json params;  // tuned fields (core/tuning/tuned_params.hpp), any subset
};

struct FrameBenchOptions {
  MeasureOptions gpu;  // GPU stages
  MeasureOptions cpu;  // CPU references and peers (slower: fewer runs)
  bool cpu_references = true;
  HistogramParams histogram;     // the tuned (or auto) parameters
  std::string histogram_origin;  // "tuned", "auto"
  BlurParams blur;
  std::string blur_origin;
  ReduceParams reduce;
  std::string reduce_origin;
  std::vector<HistogramVariant> histogram_variants;
  bool histogram_only = false;  // --histogram-only: no OpenCV row
};

// The histogram group: esframe (tuned/auto and the v3d-safe default), CPU reference, OpenCV,
// CUB. Run for every content.
Status histogramRows(const GlContext& gl, const RgbaImage& frame, const std::string& label,
                     const FrameBenchOptions& o, std::vector<BenchRow>* rows);
// Blur, resize, reduce, scale, transfers and end-to-end. Run for one content per size.
Status otherStageRows(const GlContext& gl, const RgbaImage& frame, const std::string& label,
                      const FrameBenchOptions& o, std::vector<BenchRow>* rows);

}  // namespace esf::bench
