#include "core/tuning/measure.hpp"

#include <algorithm>
#include <chrono>

#include "platform/gpu_timer.hpp"

namespace esf {

namespace {

double nowS() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The shared loop: warm-up, then samples until the count or the budget runs out.
Result<TimingStats> measureLoop(const MeasureOptions& o,
                                const std::function<Result<double>()>& sample) {
  double warm_start = nowS();
  for (int i = 0; i < o.warmup || (nowS() - warm_start < o.warmup_s && i < 100000); ++i) {
    Result<double> r = sample();
    if (!r) return r.error();
  }
  std::vector<double> samples;
  double start = nowS();
  int disjoint_retries = 0;
  while (int(samples.size()) < std::max(o.iterations, 1)) {
    Result<double> r = sample();
    if (!r) {
      // A disjoint timer event invalidates one sample, not the measurement.
      if (r.error().code == ErrorCode::kTryAgain && ++disjoint_retries < 20) continue;
      return r.error();
    }
    samples.push_back(r.value());
    if (int(samples.size()) >= o.min_iterations && nowS() - start > o.budget_s) break;
  }
  return statsOf(std::move(samples));
}

}  // namespace

TimingStats statsOf(std::vector<double> s) {
  TimingStats t;
  if (s.empty()) return t;
  std::sort(s.begin(), s.end());
  t.samples = int(s.size());
  t.min_ms = s.front();
  t.max_ms = s.back();
  size_t n = s.size();
  t.median_ms = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  return t;
}

Result<TimingStats> measureGpu(const GlContext& gl, const MeasureOptions& options,
                               const std::function<Status()>& work) {
  GpuTimer timer(gl);
  Result<TimingStats> t = measureLoop(options, [&]() { return timeGpuMs(timer, work); });
  if (t) t.value().timer_query = timer.usesTimerQuery();
  return t;
}

Result<TimingStats> measureWall(const MeasureOptions& options,
                                const std::function<Status()>& work) {
  return measureLoop(options, [&]() -> Result<double> {
    double t0 = nowS();
    if (Status s = work(); !s) return s.error();
    return (nowS() - t0) * 1e3;
  });
}

}  // namespace esf
