#pragma once
// The configurations each sweep tries (core/tuning/sweep.hpp), as lists: no GPU needed, every
// entry passes validate(limits), `quick` keeps a few for smoke runs and tests.
#include <vector>

#include "core/stages/blur.hpp"
#include "core/stages/histogram.hpp"
#include "platform/gl_context.hpp"

namespace esf {

// Powers of two in [lo, hi].
std::vector<int> powersOfTwo(int lo, int hi);
// The candidate lists (no GPU needed); each passes validate(limits).
// Workgroup counts go up to max_workgroups (llvmpipe: 256; GPUs with many cores: 4096).
std::vector<HistogramParams> persistentCandidates(const HistogramParams& base,
                                                  const ComputeLimits& limits, bool quick,
                                                  int max_workgroups = 1024);
std::vector<BlurParams> blurCandidates(const BlurParams& base, const ComputeLimits& limits,
                                       bool quick);
// Replica counts x run length for the replicated strategy at base's shape.
std::vector<HistogramParams> replicatedCandidates(const HistogramParams& base,
                                                  const ComputeLimits& limits, bool quick);

}  // namespace esf
