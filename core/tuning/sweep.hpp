#pragma once
// Parameter sweeps of the stages on the current GPU, used by `esframe tune` and bench/.
//
// Histogram, in four sweeps (a full grid would take minutes on llvmpipe):
//   1. strategy x source with each strategy's defaults, plus llvmpipe's 1-invocation form;
//   2. persistent: workgroup size (1, then powers of two from 16 up to the driver's limit)
//      x workgroup count (powers of two up to 256 on llvmpipe, 4096 elsewhere, and no more
//      invocations than pixels), on the faster source;
//   3. pixels per invocation 1..32 at the best point of 2;
//   4. replicated: replicas (1, 2, 3, 4, 6, 8 and the most that fit the shared memory) x run
//      length on and off, at the best persistent shape;
//   5. replicated: workgroup size (64 up to the driver's limit) x workgroup count at the best
//      point of 4; 6. its pixels per step (4..32);
//   7. chunk tile shapes, when a chunk strategy won sweep 1.
// Blur, one sweep of every strategy: fused tiles; split tiles x vertical segment x prefetch or
// the packed buffer between the passes; stream shapes; sliding (segment 8..256 x 16..256 lines
// per workgroup x prefetch 1, 4, 8); tiled: tile shapes (rows 1..8 x width 32..2048) x
// workgroup sizes, powers of two, whatever fits the shared memory (sweep_candidates.hpp).
// Every configuration is checked once against the CPU reference before it is timed (a fast
// wrong answer is worthless); one that fails, or that the driver refuses, stays in the sweep
// with its error and is never chosen.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/stages/blur.hpp"
#include "core/stages/histogram.hpp"
#include "core/stages/reduce.hpp"
#include "core/tuning/measure.hpp"
#include "core/tuning/progress.hpp"
#include "core/tuning/sweep_candidates.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

struct SweepPoint {
  std::string series;     // the line this point belongs to in a plot ("wg=64"), or ""
  double x = 0;           // position on the x axis (a value, or the index for categories)
  std::string label;      // the whole configuration, one line
  nlohmann::json params;  // tuned fields (tuned_params.hpp)
  TimingStats stats;
  std::string error;  // refused, failed or wrong; then never chosen
  bool ok() const { return error.empty(); }
};

struct Sweep {
  std::string stage;         // "histogram", "blur"
  std::string name;          // "strategy", "workgroups", ...
  std::string x_axis;        // what x means ("workgroup count")
  bool x_log2 = false;       // x values are powers of two: plot on a log2 axis
  bool categorical = false;  // x is an index into the point labels
  std::vector<SweepPoint> points;
  const SweepPoint* best() const;  // smallest median among the ok points, or null
};

struct TuneOptions {
  MeasureOptions measure;
  bool verify = true;  // check each configuration against the CPU reference once
  bool quick = false;  // a few points per sweep (tests, smoke runs)
  Progress* progress = nullptr;
};

// What tuning a stage found: the fastest parameters, their timing, and every sweep run.
template <class Params>
struct TuneResult {
  Params best;
  TimingStats best_stats;
  std::vector<Sweep> sweeps;
};

using HistogramTuneResult = TuneResult<HistogramParams>;
// Tunes the speed fields of `base` (bins, channels and luma stay) on `frame`.
Result<HistogramTuneResult> tuneHistogram(const GlContext& gl, const RgbaImage& frame,
                                          const HistogramParams& base, const TuneOptions& o);

using BlurTuneResult = TuneResult<BlurParams>;
// Tunes tile shape and workgroup size of `base` (filter_dim and iterations stay).
Result<BlurTuneResult> tuneBlur(const GlContext& gl, const RgbaImage& frame, const BlurParams& base,
                                const TuneOptions& o);

using ReduceTuneResult = TuneResult<ReduceParams>;
// Reduce (channels and luma stay), in three sweeps: source x subgroups (where the context has
// them) at 256 x 256; workgroup size x count on the winner; pixels per step 4..64.
Result<ReduceTuneResult> tuneReduce(const GlContext& gl, const RgbaImage& frame,
                                    const ReduceParams& base, const TuneOptions& o);

}  // namespace esf
