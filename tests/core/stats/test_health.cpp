// core/stats/health.hpp: the exact fixed-point roots, the deviations from integer sums, the
// black and freeze intervals and scene changes of a run of frames. ffmpeg itself is the oracle
// of the whole (tests/apps/esframe/test_run_health.cpp); these pin the pieces.
#include "core/stats/health.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace esf {
namespace {

// round(sqrt(m * 2^32)) by bisection on integers alone: the largest q with q^2 <= X, then
// up by one when X - q^2 > q (X lies past (q + 1/2)^2 = q^2 + q + 1/4).
uint64_t isqrtRounded(uint64_t x) {
  uint64_t lo = 0, hi = uint64_t(1) << 32;
  while (hi - lo > 1) {
    const uint64_t mid = (lo + hi) / 2;
    (mid * mid <= x ? lo : hi) = mid;
  }
  return x - lo * lo > lo ? lo + 1 : lo;
}

TEST(HealthMath, SobelRootIsExactForEveryMagnitude) {
  // Every m a 3x3 Sobel on 8-bit values can give: 2 * (4 * 255)^2.
  for (uint32_t m = 0; m <= 2080800; ++m)
    ASSERT_EQ(sobelRoot(m), isqrtRounded(uint64_t(m) << 32)) << "m = " << m;
}

double twoPassDeviation(const std::vector<double>& v) {
  double mean = 0;
  for (double x : v) mean += x;
  mean /= double(v.size());
  double sq = 0;
  for (double x : v) sq += (x - mean) * (x - mean);
  return std::sqrt(sq / double(v.size()));
}

TEST(HealthMath, DeviationFromIntegerSumsEqualsTwoPass) {
  std::mt19937 rng(7);
  for (int n : {1, 2, 3, 257, 10000}) {
    std::vector<double> v;
    int64_t sum = 0;
    uint64_t squares = 0;
    for (int i = 0; i < n; ++i) {
      const int d = int(rng() % 511) - 255;
      v.push_back(d);
      sum += d;
      squares += uint64_t(d * d);
    }
    EXPECT_NEAR(standardDeviation(uint64_t(n), sum, squares), twoPassDeviation(v), 1e-9) << n;
  }
  // A constant difference has no deviation at all (no cancellation residue).
  EXPECT_EQ(standardDeviation(4000000, -4000000LL * 255, 4000000ULL * 65025), 0.0);
  EXPECT_EQ(standardDeviation(0, 0, 0), 0.0);
}

TEST(HealthMath, SiFromSobelSumsMatchesTheRootsDeviation) {
  std::mt19937 rng(11);
  SobelSums s;
  std::vector<double> roots;
  for (int i = 0; i < 5000; ++i) {
    const uint32_t m = rng() % 2080801;
    const uint64_t q = sobelRoot(m);
    s.samples += 1;
    s.squares += m;
    s.roots += q;
    s.root_squares.add(q * q);
    roots.push_back(std::sqrt(double(m)));
  }
  EXPECT_NEAR(siFromSobel(s), twoPassDeviation(roots), 1e-6);
  // Equal gradients everywhere: exactly 0, as siti prints it.
  SobelSums flat;
  for (int i = 0; i < 1000; ++i) {
    flat.samples += 1;
    flat.squares += 20000;
    flat.roots += sobelRoot(20000);
    flat.root_squares.add(uint64_t(sobelRoot(20000)) * sobelRoot(20000));
  }
  EXPECT_EQ(siFromSobel(flat), 0.0);
}

TEST(HealthMath, Wide96CarriesIntoItsTopWord) {
  Wide96 w;
  for (int i = 0; i < 4; ++i) w.add(~uint64_t(0));
  // 4 * (2^64 - 1) = 2^66 - 4: words 0xFFFFFFFC, 0xFFFFFFFF, 3.
  EXPECT_EQ(w.words[0], 0xFFFFFFFCu);
  EXPECT_EQ(w.words[1], 0xFFFFFFFFu);
  EXPECT_EQ(w.words[2], 3u);
}

TEST(HealthMath, EntropyAndBlackLevel) {
  std::array<uint32_t, 256> h{};
  h[0] = 50;
  h[255] = 50;
  EXPECT_EQ(entropyOf(h, 100), 1.0);  // two equal halves: one bit
  h = {};
  h[7] = 100;
  EXPECT_EQ(entropyOf(h, 100), 0.0);
  // blackdetect's defaults: 16 + 0.1 * 219 = 37.9 -> 37; full range 0.1 * 255 = 25.5 -> 25.
  EXPECT_EQ(blackLevel(0.10, false), 37u);
  EXPECT_EQ(blackLevel(0.10, true), 25u);
  EXPECT_EQ(fullRangeLuma(16, false), 0u);
  EXPECT_EQ(fullRangeLuma(235, false), 255u);
  EXPECT_EQ(fullRangeLuma(100, false), 255u * 84 / 219);
  EXPECT_EQ(fullRangeLuma(3, false), 0u);
  EXPECT_EQ(fullRangeLuma(250, false), 255u);
}

// Sums of a frame whose pixels are all black or all not, moving by `sad` from the previous
// frame and by `sad_ref` from the freeze reference.
HealthSums frameSums(bool black, uint64_t sad, uint64_t sad_ref, bool first) {
  HealthSums s;
  s.pixels = 100;
  s.first = first;
  s.full_range = false;
  s.difference.histogram[black ? 20 : 120] = 100;
  s.difference.sad_previous = sad;
  s.difference.sad_reference = sad_ref;
  return s;
}

constexpr uint64_t kFrameNs = 100000000;  // 10 fps

TEST(HealthMonitor, BlackIntervalsOfAtLeastTheMinimumDuration) {
  HealthConfig config;
  config.black_min_duration = 0.5;
  HealthMonitor monitor(config);
  std::vector<HealthEvent> events;
  // Frames 0-2 bright, 3-4 black (0.2 s: too short), 5 bright, 6-11 black (0.6 s), 12 bright,
  // 13-17 black to the end (0.4 s from its first to its last frame: reported only if >= 0.5).
  const std::vector<bool> black = {0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1};
  for (size_t i = 0; i < black.size(); ++i)
    monitor.update(frameSums(black[i], 0, 0, i == 0), i, i * kFrameNs, events);
  monitor.finish(events);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].type, HealthEventType::kBlackStart);
  EXPECT_EQ(events[0].start_ns, 6 * kFrameNs);
  EXPECT_EQ(events[0].seq, 11u);  // 11 - 6 frames = 0.5 s: the run has lasted the minimum
  EXPECT_EQ(events[1].type, HealthEventType::kBlackEnd);
  EXPECT_EQ(events[1].end_ns, 12 * kFrameNs);
  EXPECT_EQ(events[1].seq, 12u);
}

TEST(HealthMonitor, ABlackRunOfExactlyTheMinimumAndOneToTheEnd) {
  HealthConfig config;
  config.black_min_duration = 0.3;
  HealthMonitor monitor(config);
  std::vector<HealthEvent> events;
  // 3 black frames (1-3), frame 4 bright: end - start = 0.3 s, blackdetect reports it; then
  // black from 5 to 9, the last frame: 9 - 5 = 0.4 s >= 0.3, ended at the last frame.
  const std::vector<bool> black = {0, 1, 1, 1, 0, 1, 1, 1, 1, 1};
  for (size_t i = 0; i < black.size(); ++i)
    monitor.update(frameSums(black[i], 0, 0, i == 0), i, i * kFrameNs, events);
  monitor.finish(events);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].type, HealthEventType::kBlackStart);
  EXPECT_EQ(events[0].seq, 4u);
  EXPECT_EQ(events[1].type, HealthEventType::kBlackEnd);
  EXPECT_EQ(events[1].start_ns, 1 * kFrameNs);
  EXPECT_EQ(events[1].end_ns, 4 * kFrameNs);
  EXPECT_EQ(events[2].type, HealthEventType::kBlackStart);
  EXPECT_EQ(events[2].start_ns, 5 * kFrameNs);
  EXPECT_EQ(events[2].seq, 8u);
  EXPECT_EQ(events[3].type, HealthEventType::kBlackEnd);
  EXPECT_EQ(events[3].end_ns, 9 * kFrameNs);  // the last frame, as blackdetect ends it
}

TEST(HealthMonitor, FreezeStartsOnceTheDurationIsReachedAndEndsAtTheFirstChange) {
  HealthConfig config;
  config.freeze_duration = 0.5;
  HealthMonitor monitor(config);
  std::vector<HealthEvent> events;
  // Frames 0-4 change (sad_ref 1000 = mafd 0.039), 5-14 repeat frame 4 (sad_ref 0), 15 changes.
  for (uint64_t i = 0; i <= 15; ++i) {
    const bool frozen = i >= 5 && i <= 14;
    monitor.update(frameSums(false, frozen ? 0 : 1000, frozen ? 0 : 1000, i == 0), i, i * kFrameNs,
                   events);
  }
  ASSERT_EQ(events.size(), 2u);
  // The reference is frame 4 (the last that changed): 0.5 s after it is frame 9.
  EXPECT_EQ(events[0].type, HealthEventType::kFreezeStart);
  EXPECT_EQ(events[0].seq, 9u);
  EXPECT_EQ(events[0].start_ns, 4 * kFrameNs);
  EXPECT_EQ(events[1].type, HealthEventType::kFreezeEnd);
  EXPECT_EQ(events[1].seq, 15u);
  EXPECT_EQ(events[1].end_ns, 15 * kFrameNs);
}

TEST(HealthMonitor, SceneScoreIsScdetsAndChangesAboveTheThreshold) {
  HealthMonitor monitor(HealthConfig{});
  std::vector<HealthEvent> events;
  // mafd = 100 * sad / 100 / 256: sad 256 -> 1, sad 5120 -> 20.
  HealthFigures f0 = monitor.update(frameSums(false, 0, 0, true), 0, 0, events);
  HealthFigures f1 = monitor.update(frameSums(false, 256, 256, false), 1, kFrameNs, events);
  HealthFigures f2 = monitor.update(frameSums(false, 5120, 5120, false), 2, 2 * kFrameNs, events);
  HealthFigures f3 = monitor.update(frameSums(false, 5120, 5120, false), 3, 3 * kFrameNs, events);
  EXPECT_EQ(f0.scene_score, 0.0);
  EXPECT_EQ(f1.scene_score, 1.0);   // min(1, |1 - 0|)
  EXPECT_EQ(f2.scene_score, 19.0);  // min(20, |20 - 1|)
  EXPECT_EQ(f3.scene_score, 0.0);   // min(20, |20 - 20|)
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, HealthEventType::kSceneChange);
  EXPECT_EQ(events[0].seq, 2u);
  EXPECT_EQ(events[0].score, 19.0);
}

}  // namespace
}  // namespace esf
