#pragma once
// Timing the way the workgroup-size tuning seed asks: warm-up runs first, then many runs, the
// median (robust against the odd slow one) with min and max; GPU work bracketed by timer
// queries (GpuTimer) or by glFinish and the wall clock.
#include <functional>
#include <vector>

#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct TimingStats {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int samples = 0;
  bool timer_query = false;  // GPU time from GL_EXT_disjoint_timer_query, else wall time
};
TimingStats statsOf(std::vector<double> samples_ms);

struct MeasureOptions {
  int warmup = 3;
  int iterations = 15;
  // Stop early once this much time went into the measured runs (slow configurations on
  // llvmpipe take a large part of it each), keeping at least min_iterations samples.
  double budget_s = 1.0;
  int min_iterations = 3;
  // Warm-up also lasts at least this long: a GPU that idled while the CPU compiled the
  // previous configuration runs at low clocks until it has had work for a while (on an H200
  // the same blur timed half again slower in a sweep than in a long run).
  double warmup_s = 0;
};

// GPU time of `work` (GL commands). Each run is bracketed on its own; a disjoint timer event
// discards that sample and runs it again.
Result<TimingStats> measureGpu(const GlContext& gl, const MeasureOptions& options,
                               const std::function<Status()>& work);
// Wall time of `work` (CPU work, or GL work that ends in a read-back or glFinish itself).
Result<TimingStats> measureWall(const MeasureOptions& options, const std::function<Status()>& work);

}  // namespace esf
