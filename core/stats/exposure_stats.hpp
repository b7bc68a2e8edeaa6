#pragma once
// Exposure statistics of one channel, from a 256-value histogram (one count per 8-bit value, so
// every figure is exact) plus the user's binned histogram for the clip fractions.
// Definitions (docs/output-formats.md):
//   min, max        smallest / largest value with a nonzero count
//   sum, mean       sum of values (exact, 64-bit) and sum / count
//   pN              ffmpeg signalstats' rule: the first value v whose cumulative count reaches
//                   lrint(count * N / 100) (YLOW = p10, YHIGH = p90)
//   clip_low/high   fraction of pixels in the lowest / highest bin of the binned histogram
//   msv             libcamera's mean sample value: values grouped into 5 regions as libcamera's
//                   software AGC groups its histogram, msv = sum((i+1)*region_i) / count, in 1..5
//   ev_hint         log2(2.5 / msv) clamped to [-4, 4] stops: the correction towards libcamera's
//                   target msv 2.5 (msv is not linear in exposure: a direction and rough size)
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "esframe/frame_result.hpp"
#include "esframe/histogram_data.hpp"

namespace esf {

constexpr int kValueCount = 256;
constexpr double kMsvTarget = 2.5;
constexpr double kEvHintLimit = 4.0;

// The percentile rule above; counts has one entry per 8-bit value.
uint32_t valuePercentile(std::span<const uint64_t> value_counts, uint64_t total, int percent);
// libcamera's region index of 8-bit value v (black level 0, histogram of 256 values).
int msvRegion(int v);
double meanSampleValue(std::span<const uint64_t> value_counts);
// nullopt when msv is 0 (no pixels).
std::optional<double> evHint(double msv);

// value_counts: 256 counts of 8-bit values; binned: that channel's counts at the user's bins.
ChannelStats channelStats(char channel, std::span<const uint64_t> value_counts,
                          std::span<const uint32_t> binned);
// Stats for every channel of `binned`; `values` is the same channels at 256 bins.
std::vector<ChannelStats> exposureStats(const HistogramData& values, const HistogramData& binned);

}  // namespace esf
