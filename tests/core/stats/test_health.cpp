// core/stats/health_figures.hpp: the exact fixed-point roots, the deviations from integer sums, the
// black and freeze intervals and scene changes of a run of frames. ffmpeg itself is the oracle
// of the whole (tests/apps/esframe/test_run_health.cpp); these pin the pieces.
#include "core/stats/health_figures.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "esframe/health.hpp"

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

// Only a YUV frame's luma can be limited range, as its colorimetry says; the frame's form and the
// form a backend takes with the format already read agree.
TEST(HealthMath, OnlyLimitedRangeYuvLumaIsStretched) {
  Colorimetry limited, full;
  limited.full_range = false;
  full.full_range = true;
  EXPECT_FALSE(healthLumaIsFullRange(true, limited));
  EXPECT_TRUE(healthLumaIsFullRange(true, full));
  EXPECT_TRUE(healthLumaIsFullRange(false, limited));
  EXPECT_TRUE(healthLumaIsFullRange(false, full));
  Frame nv12;
  nv12.format = PixelFormat::kNV12;
  nv12.colorimetry = limited;
  EXPECT_FALSE(healthLumaIsFullRange(nv12));
  nv12.colorimetry = full;
  EXPECT_TRUE(healthLumaIsFullRange(nv12));
  Frame rgb;
  rgb.format = PixelFormat::kRGB24;
  rgb.colorimetry = limited;
  EXPECT_TRUE(healthLumaIsFullRange(rgb));
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

TEST(HealthRegionSpans, CellsTileTheFrameAndRectanglesClip) {
  HealthRegionSpec spec;
  spec.columns = 3;
  spec.rows = 2;
  spec.rois = {{5, 1, 100, 2}, {20, 20, 4, 4}};
  // 10 x 5: columns x * 3 / 10 -> 0-3 | 4-6 | 7-9; rows y * 2 / 5 -> 0-2 | 3-4.
  const std::vector<RegionSpan> spans = healthRegionSpans(spec, 10, 5);
  ASSERT_EQ(spans.size(), 8u);
  const int want[][4] = {{0, 0, 4, 3}, {4, 0, 7, 3},  {7, 0, 10, 3}, {0, 3, 4, 5},
                         {4, 3, 7, 5}, {7, 3, 10, 5}, {5, 1, 10, 3}, {10, 5, 10, 5}};
  for (size_t i = 0; i < spans.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(spans[i].x0, want[i][0]);
    EXPECT_EQ(spans[i].y0, want[i][1]);
    EXPECT_EQ(spans[i].x1, want[i][2]);
    EXPECT_EQ(spans[i].y1, want[i][3]);
  }
  EXPECT_EQ(spanPixels(spans[0]), 12u);
  EXPECT_EQ(spanInteriorPixels(spans[0], 10, 5), 6u);  // columns 1-3 of rows 1-2
  EXPECT_EQ(spanPixels(spans[7]), 0u);                 // outside the frame
}

// Sums of a 2x1-grid frame of 10 x 10 pixels whose cells have these Sobel sums.
HealthSums gridSums(uint64_t left_squares, uint64_t right_squares, bool first) {
  HealthSums s;
  s.pixels = 100;
  s.width = 10;
  s.height = 10;
  s.first = first;
  s.difference.histogram[120] = 100;
  s.difference.region_luma = {50 * 120, 50 * 100};
  s.difference.region_changed = {5, 0};
  s.sobel.samples = 64;
  s.sobel.region_squares = {left_squares, right_squares};
  return s;
}

TEST(HealthMonitor, RegionFiguresAndCoveredIntervals) {
  HealthConfig config;
  config.grid_columns = 2;
  config.grid_rows = 1;
  config.flat_tenengrad = 50;
  config.detail_loss = 0;  // only flat_tenengrad
  config.covered_ratio = 1.0;
  config.covered_min_duration = 0.2;
  HealthMonitor monitor(config);
  std::vector<HealthEvent> events;
  // Each cell has 50 pixels and 32 interior ones (columns 1-4 or 5-8 of rows 1-8).
  HealthFigures f = monitor.update(gridSums(32 * 400, 32 * 10, true), 0, 0, events);
  ASSERT_EQ(f.regions.size(), 2u);
  EXPECT_EQ(f.regions[0].pixels, 50u);
  EXPECT_EQ(f.regions[0].mean, 120.0);
  EXPECT_EQ(f.regions[1].mean, 100.0);
  EXPECT_EQ(f.regions[0].changed, 0.1);
  EXPECT_EQ(f.regions[0].tenengrad, 400.0);
  EXPECT_EQ(f.regions[1].tenengrad, 10.0);
  EXPECT_FALSE(f.regions[0].flat);
  EXPECT_TRUE(f.regions[1].flat);
  EXPECT_FALSE(f.covered);  // one cell of two
  // Both flat from frame 1 to 4 (0.3 s), detail back at 5.
  for (uint64_t i = 1; i <= 5; ++i) {
    f = monitor.update(gridSums(i < 5 ? 32 * 49 : 32 * 50, 0, false), i, i * kFrameNs, events);
    EXPECT_EQ(f.covered, i < 5) << i;
  }
  monitor.finish(events);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].type, HealthEventType::kCoveredStart);
  EXPECT_EQ(events[0].start_ns, 1 * kFrameNs);
  EXPECT_EQ(events[0].seq, 3u);  // lasted 0.2 s
  EXPECT_EQ(events[1].type, HealthEventType::kCoveredEnd);
  EXPECT_EQ(events[1].end_ns, 5 * kFrameNs);
  EXPECT_STREQ(healthEventName(events[1].type), "covered_end");
}

TEST(HealthMonitor, CellsThatLoseTheirDetailAtOnceAreFlat) {
  HealthConfig config;
  config.grid_columns = 2;
  config.grid_rows = 1;
  config.flat_tenengrad = 0;  // only the loss against the last frame that was not covered
  config.detail_loss = 0.1;
  config.covered_ratio = 1.0;
  HealthMonitor monitor(config);
  std::vector<HealthEvent> events;
  auto covered = [&](uint64_t left, uint64_t right, uint64_t seq) {
    return monitor.update(gridSums(32 * left, 32 * right, seq == 0), seq, seq * kFrameNs, events)
        .covered;
  };
  EXPECT_FALSE(covered(1000, 1000, 0));
  EXPECT_TRUE(covered(99, 99, 1));      // both below a tenth of 1000
  EXPECT_TRUE(covered(99, 99, 2));      // still against frame 0: covered frames are no baseline
  EXPECT_FALSE(covered(100, 1000, 3));  // 100 is not below a tenth of 1000
  EXPECT_FALSE(covered(9, 1000, 4));    // only the left cell lost against frame 3's 100
  EXPECT_FALSE(covered(9, 100, 5));     // against frame 4: neither is below a tenth
}

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

// The public text form of HealthConfig (the CLI's --health and the element's health-options).
TEST(HealthKeys, TextGivesEveryFieldAndErrorsNameTheKey) {
  Result<HealthConfig> empty = parseHealthConfig("");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->freeze_noise, HealthConfig{}.freeze_noise);
  Result<HealthConfig> h = parseHealthConfig(
      "pix_th=0.2,pic_th=0.9,black_min_duration=1,noise=-40dB,freeze_duration=3,threshold=20,"
      "grid=3x2,roi=1,2,3,4,5,6,7,8,change=40,flat=50,detail_loss=0.5,covered=0.5,"
      "covered_min_duration=4");
  ASSERT_TRUE(h.ok()) << h.error().message;
  EXPECT_EQ(h->pixel_black_th, 0.2);
  EXPECT_EQ(h->picture_black_ratio_th, 0.9);
  EXPECT_EQ(h->black_min_duration, 1.0);
  EXPECT_DOUBLE_EQ(h->freeze_noise, 0.01);  // 10^(-40/20)
  EXPECT_EQ(h->freeze_duration, 3.0);
  EXPECT_EQ(h->scene_threshold, 20.0);
  EXPECT_EQ(h->grid_columns, 3);
  EXPECT_EQ(h->grid_rows, 2);
  EXPECT_EQ(h->rois, (std::vector<HealthRegion>{{1, 2, 3, 4}, {5, 6, 7, 8}}));
  EXPECT_EQ(h->change_level, 40u);
  EXPECT_EQ(h->flat_tenengrad, 50.0);
  EXPECT_EQ(h->detail_loss, 0.5);
  EXPECT_EQ(h->covered_ratio, 0.5);
  EXPECT_EQ(h->covered_min_duration, 4.0);
  for (const auto& [text, want] : std::vector<std::pair<const char*, const char*>>{
           {"noise=abc", "health keys: noise=abc: not a finite number"},
           {"pic_th=inf", "health keys: pic_th=inf: not a finite number"},
           {"threshold=101", "health keys: threshold=101: must be in [0, 100]"},
           {"grid=17x2", "health keys grid '17x2': expected CxR (e.g. 4x3), each 1..16"},
           {"roi=1,2,3", "health keys: roi=1,2,3: expected X,Y,W,H"},
           {"loud=1", "loud"}}) {
    Result<HealthConfig> bad = parseHealthConfig(text);
    ASSERT_FALSE(bad.ok()) << text;
    EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument) << text;
    EXPECT_NE(bad.error().message.find(want), std::string::npos) << bad.error().message;
  }
}

// With `what`, errors name where the text came from (the CLI's flag, the element's property)
// where they say "health keys" otherwise; the values parse the same.
TEST(HealthKeys, ErrorsNameWhatTheTextCameFrom) {
  Result<HealthConfig> h = parseHealthConfig("threshold=20,grid=3x2", "health-options");
  ASSERT_TRUE(h.ok()) << h.error().message;
  EXPECT_EQ(h->scene_threshold, 20.0);
  EXPECT_EQ(h->grid_columns, 3);
  EXPECT_EQ(h->grid_rows, 2);
  for (const auto& [text, want] : std::vector<std::pair<const char*, const char*>>{
           {"threshold=101", "--health: threshold=101: must be in [0, 100]"},
           {"grid=17x2", "--health grid '17x2': expected CxR (e.g. 4x3), each 1..16"}}) {
    Result<HealthConfig> bad = parseHealthConfig(text, "--health");
    ASSERT_FALSE(bad.ok()) << text;
    EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument) << text;
    EXPECT_EQ(bad.error().message.find(want), 0u) << bad.error().message;
  }
}

}  // namespace
}  // namespace esf
