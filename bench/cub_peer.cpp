// The CUB peer (compiled only when nvcc was found): wraps bench/cub's CUDA code.
#include <vector>

#include "bench/cub/cub_histogram.h"
#include "bench/peers.hpp"

namespace esf::bench {

std::string cubInfo() {
  char name[256] = "", error[256] = "";
  if (!cuda::deviceName(name, sizeof name, error, sizeof error))
    return std::string("CUB: built in, not run: ") + error;
  return std::string("CUB MultiHistogramEven<4,4> on ") + name;
}

Result<TimingStats> cubHistogram(const RgbaImage& frame, const MeasureOptions& o,
                                 std::vector<uint32_t>* rgba_counts) {
  char name[256] = "", error[512] = "";
  if (!cuda::deviceName(name, sizeof name, error, sizeof error))
    return fail(ErrorCode::kUnsupported, error);
  int iterations = std::max(o.iterations, 1);
  std::vector<double> samples(size_t(iterations), 0.0);
  std::vector<uint32_t> counts(256 * 4, 0);
  if (!cuda::multiHistogramEven(frame.pixels.data(), frame.width, frame.height, o.warmup,
                                iterations, samples.data(), counts.data(), error, sizeof error))
    return fail(ErrorCode::kUnsupported, error);
  if (rgba_counts) *rgba_counts = std::move(counts);
  TimingStats t = statsOf(std::move(samples));
  t.timer_query = true;  // CUDA events: device time, like GL timer queries
  return t;
}

}  // namespace esf::bench
