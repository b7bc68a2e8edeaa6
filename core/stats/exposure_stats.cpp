#include "core/stats/exposure_stats.hpp"

#include <algorithm>
#include <cmath>

namespace esf {
namespace {

// lrint(total * percent / 100) in integers: round half to even, as lrint does by default.
uint64_t percentRank(uint64_t total, int percent) {
  uint64_t q = total * uint64_t(percent) / 100;
  uint64_t r = total * uint64_t(percent) % 100;
  if (r > 50 || (r == 50 && (q & 1))) ++q;
  return q;
}

}  // namespace

uint32_t valuePercentile(std::span<const uint64_t> value_counts, uint64_t total, int percent) {
  // ffmpeg signalstats: the first value whose running count reaches the rank (rank 0: value 0).
  const uint64_t rank = percentRank(total, percent);
  uint64_t running = 0;
  for (size_t v = 0; v < value_counts.size(); ++v) {
    running += value_counts[v];
    if (running >= rank) return uint32_t(v);
  }
  return uint32_t(value_counts.size() - 1);
}

int msvRegion(int v) {
  // libcamera src/ipa/simple/algorithms/agc.cpp with a 256-entry histogram and black level 0:
  // yHistValsPerBin = 256 / 5 = 51, yHistValsPerBinMod = 256 / (256 % 5 + 1) = 128,
  // idx = (i - i / yHistValsPerBinMod) / yHistValsPerBin.
  constexpr int kRegions = 5;
  constexpr int kPerRegion = kValueCount / kRegions;
  constexpr int kPerRegionMod = kValueCount / (kValueCount % kRegions + 1);
  return (v - v / kPerRegionMod) / kPerRegion;
}

double meanSampleValue(std::span<const uint64_t> value_counts) {
  uint64_t regions[5] = {};
  for (size_t v = 0; v < value_counts.size(); ++v) regions[msvRegion(int(v))] += value_counts[v];
  uint64_t num = 0, denom = 0;
  for (int i = 0; i < 5; ++i) {
    num += regions[i] * uint64_t(i + 1);
    denom += regions[i];
  }
  return denom == 0 ? 0.0 : double(num) / double(denom);
}

std::optional<double> evHint(double msv) {
  if (msv <= 0) return std::nullopt;
  return std::clamp(std::log2(kMsvTarget / msv), -kEvHintLimit, kEvHintLimit);
}

ChannelStats channelStats(char channel, std::span<const uint64_t> value_counts,
                          std::span<const uint32_t> binned) {
  ChannelStats s;
  s.channel = channel;
  bool seen = false;
  for (size_t v = 0; v < value_counts.size(); ++v) {
    const uint64_t n = value_counts[v];
    if (n == 0) continue;
    if (!seen) s.min = uint32_t(v);
    seen = true;
    s.max = uint32_t(v);
    s.count += n;
    s.sum += n * v;
  }
  if (s.count == 0) return s;
  s.mean = double(s.sum) / double(s.count);
  s.p1 = valuePercentile(value_counts, s.count, 1);
  s.p10 = valuePercentile(value_counts, s.count, 10);
  s.p50 = valuePercentile(value_counts, s.count, 50);
  s.p90 = valuePercentile(value_counts, s.count, 90);
  s.p99 = valuePercentile(value_counts, s.count, 99);
  if (!binned.empty()) {
    s.clip_low = double(binned.front()) / double(s.count);
    s.clip_high = double(binned.back()) / double(s.count);
  }
  s.msv = meanSampleValue(value_counts);
  return s;
}

std::vector<ChannelStats> exposureStats(const HistogramData& values, const HistogramData& binned) {
  std::vector<ChannelStats> out;
  for (int c = 0; c < binned.channelCount(); ++c) {
    const size_t vc = values.channels.find(binned.channels[size_t(c)]);
    std::vector<uint64_t> counts(kValueCount, 0);
    if (vc != std::string::npos && values.bins == kValueCount) {
      for (int v = 0; v < kValueCount; ++v) counts[size_t(v)] = values.at(v, int(vc));
    }
    std::vector<uint32_t> b = binned.channel(c);
    out.push_back(channelStats(binned.channels[size_t(c)], counts, b));
  }
  return out;
}

}  // namespace esf
