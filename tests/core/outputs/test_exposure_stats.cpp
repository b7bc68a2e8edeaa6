// Exposure stats against values computed here a different way: from the sorted list of every
// sample (not from running counts), with std::lrint for ffmpeg's ranks and libcamera's AGC loop
// written out as libcamera writes it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/stats/exposure_stats.hpp"
#include "tests/core/outputs/independent_stats.hpp"

namespace esf {
namespace {

using test::ffmpegPercentile;
using test::libcameraMsv;

struct Samples {
  std::vector<uint64_t> counts = std::vector<uint64_t>(256, 0);
  std::vector<uint32_t> sorted;
};

Samples fromValues(std::vector<uint32_t> values) {
  Samples s;
  for (uint32_t v : values) ++s.counts[v];
  std::sort(values.begin(), values.end());
  s.sorted = std::move(values);
  return s;
}

std::vector<uint32_t> binned(const std::vector<uint64_t>& counts, int bins) {
  std::vector<uint32_t> out(size_t(bins), 0);
  for (int v = 0; v < 256; ++v) out[size_t((v * bins) >> 8)] += uint32_t(counts[size_t(v)]);
  return out;
}

void expectMatches(const Samples& s, int bins) {
  const std::vector<uint32_t> b = binned(s.counts, bins);
  const ChannelStats st = channelStats('l', s.counts, b);
  const auto& v = s.sorted;
  ASSERT_EQ(st.count, v.size());
  EXPECT_EQ(st.min, v.front());
  EXPECT_EQ(st.max, v.back());
  uint64_t sum = 0;
  for (uint32_t x : v) sum += x;
  EXPECT_EQ(st.sum, sum);
  EXPECT_EQ(st.mean, double(sum) / double(v.size()));
  EXPECT_EQ(st.p1, ffmpegPercentile(v, 1));
  EXPECT_EQ(st.p10, ffmpegPercentile(v, 10));
  EXPECT_EQ(st.p50, ffmpegPercentile(v, 50));
  EXPECT_EQ(st.p90, ffmpegPercentile(v, 90));
  EXPECT_EQ(st.p99, ffmpegPercentile(v, 99));
  // Lowest / highest bin: the values v with (v * bins) >> 8 == 0 / == bins - 1.
  uint64_t low = 0, high = 0;
  for (uint32_t x : v) {
    low += ((x * uint32_t(bins)) >> 8) == 0;
    high += ((x * uint32_t(bins)) >> 8) == uint32_t(bins - 1);
  }
  EXPECT_EQ(st.clip_low, double(low) / double(v.size()));
  EXPECT_EQ(st.clip_high, double(high) / double(v.size()));
  EXPECT_EQ(st.msv, libcameraMsv(s.counts));
}

TEST(ExposureStats, SeededRandomSamplesMatchSortedReference) {
  std::mt19937 rng(1234);
  for (int n : {1, 2, 3, 5, 10, 15, 25, 99, 100, 101, 1000, 12345}) {
    for (int bins : {1, 3, 16, 255, 256}) {
      std::vector<uint32_t> values(static_cast<size_t>(n));
      for (auto& x : values) x = rng() % 256;
      SCOPED_TRACE("n=" + std::to_string(n) + " bins=" + std::to_string(bins));
      expectMatches(fromValues(values), bins);
    }
  }
}

TEST(ExposureStats, SkewedAndFlat) {
  std::mt19937 rng(7);
  std::vector<uint32_t> dark(5000);
  for (auto& x : dark)
    x = std::min<uint32_t>(255, uint32_t(std::abs(std::normal_distribution<>(10, 8)(rng))));
  expectMatches(fromValues(dark), 256);
  for (uint32_t flat : {0u, 128u, 255u})
    expectMatches(fromValues(std::vector<uint32_t>(777, flat)), 64);
}

TEST(ExposureStats, MsvAndEvHintKnownValues) {
  // All black: every sample in libcamera's region 1 of 5; all white: region 5.
  std::vector<uint64_t> counts(256, 0);
  counts[0] = 100;
  EXPECT_EQ(meanSampleValue(counts), 1.0);
  EXPECT_DOUBLE_EQ(*evHint(1.0), std::log2(2.5));
  counts[0] = 0;
  counts[255] = 100;
  EXPECT_EQ(meanSampleValue(counts), 5.0);
  EXPECT_DOUBLE_EQ(*evHint(5.0), -1.0);
  EXPECT_DOUBLE_EQ(*evHint(2.5), 0.0);
  EXPECT_FALSE(evHint(0.0).has_value());  // no pixels
  // Region borders of the 256-entry mapping: 0..50, 51..101, 102..153, 154..204, 205..255.
  EXPECT_EQ(msvRegion(50), 0);
  EXPECT_EQ(msvRegion(51), 1);
  EXPECT_EQ(msvRegion(153), 2);
  EXPECT_EQ(msvRegion(154), 3);
  EXPECT_EQ(msvRegion(205), 4);
  EXPECT_EQ(msvRegion(255), 4);
}

TEST(ExposureStats, PercentileRankRoundsHalfToEvenLikeLrint) {
  // 5 samples: 10% is rank lrint(0.5) = 0; 50% is lrint(2.5) = 2; 90% is lrint(4.5) = 4.
  Samples s = fromValues({10, 20, 30, 40, 50});
  EXPECT_EQ(valuePercentile(s.counts, 5, 10), 0u);
  EXPECT_EQ(valuePercentile(s.counts, 5, 50), 20u);
  EXPECT_EQ(valuePercentile(s.counts, 5, 90), 40u);
  // 15 samples: 10% is lrint(1.5) = 2.
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < 15; ++i) v.push_back(i * 10);
  Samples t = fromValues(v);
  EXPECT_EQ(valuePercentile(t.counts, 15, 10), 10u);
}

TEST(ExposureStats, EmptyChannelIsAllZero) {
  std::vector<uint64_t> counts(256, 0);
  std::vector<uint32_t> b(16, 0);
  ChannelStats st = channelStats('r', counts, b);
  EXPECT_EQ(st.count, 0u);
  EXPECT_EQ(st.msv, 0.0);
}

}  // namespace
}  // namespace esf
