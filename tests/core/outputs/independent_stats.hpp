#pragma once
// Exposure stats computed the way a reader would check them by hand: every sample listed and
// sorted, ffmpeg's ranks with std::lrint, libcamera's AGC loop as libcamera writes it. Shared by
// the stats unit test and the `esframe run` JSONL test; independent of core/stats.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace esf::test {

struct IndependentStats {
  uint32_t min = 0, max = 0;
  uint64_t sum = 0;
  double mean = 0;
  uint32_t p1 = 0, p10 = 0, p50 = 0, p90 = 0, p99 = 0;
  double msv = 0;
};

// ffmpeg signalstats: rank = lrint(n * p / 100.), the first value whose cumulative count
// reaches it: element rank - 1 of the sorted samples (rank 0: value 0, as ffmpeg's loop gives).
inline uint32_t ffmpegPercentile(const std::vector<uint32_t>& sorted, int percent) {
  const long rank = std::lrint(double(sorted.size()) * percent / 100.);
  if (rank == 0) return 0;
  return sorted[size_t(rank - 1)];
}

// libcamera src/ipa/simple/algorithms/agc.cpp, histogram of 256 entries, black level 0.
inline double libcameraMsv(const std::vector<uint64_t>& hist) {
  const unsigned kExposureBinsCount = 5;
  const unsigned histogramSize = 256;
  const unsigned yHistValsPerBin = histogramSize / kExposureBinsCount;
  const unsigned yHistValsPerBinMod = histogramSize / (histogramSize % kExposureBinsCount + 1);
  uint64_t exposureBins[kExposureBinsCount] = {};
  uint64_t denom = 0, num = 0;
  for (unsigned i = 0; i < histogramSize; i++) {
    unsigned idx = (i - (i / yHistValsPerBinMod)) / yHistValsPerBin;
    exposureBins[idx] += hist[i];
  }
  for (unsigned i = 0; i < kExposureBinsCount; i++) {
    denom += exposureBins[i];
    num += exposureBins[i] * (i + 1);
  }
  return denom == 0 ? 0 : double(num) / double(denom);
}

// From 256 counts (one per 8-bit value); needs at least one sample.
inline IndependentStats independentStats(const std::vector<uint64_t>& counts) {
  std::vector<uint32_t> sorted;
  for (uint32_t v = 0; v < counts.size(); ++v) sorted.insert(sorted.end(), counts[v], v);
  IndependentStats s;
  if (sorted.empty()) return s;
  s.min = sorted.front();
  s.max = sorted.back();
  for (uint32_t x : sorted) s.sum += x;
  s.mean = double(s.sum) / double(sorted.size());
  s.p1 = ffmpegPercentile(sorted, 1);
  s.p10 = ffmpegPercentile(sorted, 10);
  s.p50 = ffmpegPercentile(sorted, 50);
  s.p90 = ffmpegPercentile(sorted, 90);
  s.p99 = ffmpegPercentile(sorted, 99);
  s.msv = libcameraMsv(counts);
  return s;
}

}  // namespace esf::test
