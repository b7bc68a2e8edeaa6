// The health kernels (core/cpu/simd_health.hpp, simd_sobel.hpp) against their scalar formulas on
// every target's vector width and tail, and the executor's health stage against the reference
// backend's over runs of frames (the kept previous and freeze-reference planes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <vector>

#include "core/cpu/simd_health.hpp"
#include "core/cpu/simd_sobel.hpp"
#include "core/stages/sobel_reference.hpp"
#include "core/stats/health_figures.hpp"
#include "esframe/pipeline.hpp"
#include "tests/core/cpu/cpu_test_util.hpp"
#include "tests/support/random_frame.hpp"

namespace esf {
namespace {

// Both ways of taking the Sobel roots, whichever this CPU times faster.
constexpr simd::SobelRootWay kRootWays[] = {simd::SobelRootWay::kTable,
                                            simd::SobelRootWay::kDoubles};

std::vector<uint8_t> randomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = uint8_t(rng());
  return v;
}

TEST(SimdHealth, SobelRootsEqualSobelRootForEveryMagnitude) {
  test::onEveryTarget([] {
    constexpr uint32_t kLargest = 2080800;  // 2 * 1020^2
    std::vector<uint32_t> m(kLargest + 1);
    for (uint32_t i = 0; i <= kLargest; ++i) m[i] = i;
    for (bool in_doubles : {false, true}) {
      SCOPED_TRACE(in_doubles ? "in doubles" : "in 32-bit lanes");
      std::vector<uint32_t> q(m.size(), 0xdeadbeef);
      std::vector<int32_t> excess(m.size(), 0x7eadbeef);
      simd::sobelRoots(m.data(), int(m.size()), in_doubles, q.data(), excess.data());
      uint32_t mismatches = 0, excess_mismatches = 0;
      for (uint32_t i = 0; i <= kLargest; ++i) {
        const uint64_t root = sobelRoot(i);
        mismatches += q[i] != root;
        excess_mismatches += excess[i] != int64_t(root * root) - int64_t(uint64_t(i) << 32);
      }
      EXPECT_EQ(mismatches, 0u);
      EXPECT_EQ(excess_mismatches, 0u);
      EXPECT_EQ(q[1], 65536u);
      EXPECT_EQ(q[1040400], 1020u * 65536u);
    }
  });
}

TEST(SimdHealth, DifferenceRowStretchesEveryValueAsFullRangeLuma) {
  test::onEveryTarget([] {
    // Every value at every position of a few vector widths and tails, in c (stored) and in p
    // (stretched in the lanes: the motion sums see it).
    for (int n : {1, 7, 255, 256, 259, 1000}) {
      std::vector<uint8_t> c(static_cast<size_t>(n)), p(static_cast<size_t>(n)),
          fc(static_cast<size_t>(n));
      for (int start = 0; start < 256; start += (n < 256 ? n : 256)) {
        for (int i = 0; i < n; ++i) {
          c[size_t(i)] = uint8_t(start + i);
          p[size_t(i)] = uint8_t(start + i * 7 + 3);
        }
        simd::DifferenceRowSums got;
        simd::differenceRow(c.data(), p.data(), p.data(), n, fc.data(), got);
        int64_t motion = 0;
        uint64_t squares = 0;
        for (int i = 0; i < n; ++i) {
          ASSERT_EQ(fc[size_t(i)], fullRangeLuma(c[size_t(i)], false)) << n << " " << int(c[i]);
          const int64_t m = int64_t(fullRangeLuma(c[size_t(i)], false)) -
                            int64_t(fullRangeLuma(p[size_t(i)], false));
          motion += m;
          squares += uint64_t(m * m);
        }
        EXPECT_EQ(got.motion_sum, motion) << n;
        EXPECT_EQ(got.motion_squares, squares) << n;
      }
    }
    const uint8_t ends[] = {0, 16, 235, 255}, zeros[4] = {};
    uint8_t stretched[4];
    simd::DifferenceRowSums sums;
    simd::differenceRow(ends, zeros, zeros, 4, stretched, sums);
    EXPECT_EQ(stretched[0], 0);
    EXPECT_EQ(stretched[1], 0);
    EXPECT_EQ(stretched[2], 255);
    EXPECT_EQ(stretched[3], 255);
  });
}

simd::DifferenceRowSums differenceByFormula(const uint8_t* c, const uint8_t* p, const uint8_t* r,
                                            int n, bool full_range) {
  simd::DifferenceRowSums s;
  for (int x = 0; x < n; ++x) {
    s.sad_previous += uint64_t(std::abs(c[x] - p[x]));
    s.sad_reference += uint64_t(std::abs(c[x] - r[x]));
    const int64_t m = int64_t(fullRangeLuma(c[x], full_range)) - fullRangeLuma(p[x], full_range);
    s.motion_sum += m;
    s.motion_squares += uint64_t(m * m);
  }
  return s;
}

void expectEqual(const simd::DifferenceRowSums& got, const simd::DifferenceRowSums& want) {
  EXPECT_EQ(got.sad_previous, want.sad_previous);
  EXPECT_EQ(got.sad_reference, want.sad_reference);
  EXPECT_EQ(got.motion_sum, want.motion_sum);
  EXPECT_EQ(got.motion_squares, want.motion_squares);
}

TEST(SimdHealth, DifferenceRowEqualsTheFormula) {
  test::onEveryTarget([] {
    uint32_t seed = 1;
    // Up past one 64-bit flush of the squares' 32-bit lanes (2048 vectors of up to 64 bytes).
    for (int n : {1, 3, 17, 31, 64, 65, 257, 1920, 140000})
      for (int content = 0; content < 3; ++content)
        for (bool full_range : {true, false}) {
          SCOPED_TRACE(testing::Message() << n << " content " << content << " full " << full_range);
          std::vector<uint8_t> c = randomBytes(size_t(n), seed++),
                               p = randomBytes(size_t(n), seed++),
                               r = randomBytes(size_t(n), seed++);
          if (content == 1) {  // flat: all zero differences
            p = c;
            r = c;
          } else if (content == 2) {  // the largest differences, both signs
            for (int x = 0; x < n; ++x) {
              c[size_t(x)] = x % 3 ? 255 : 0;
              p[size_t(x)] = 255 - c[size_t(x)];
              r[size_t(x)] = p[size_t(x)];
            }
          }
          std::vector<uint8_t> fc(size_t(n), 0x5a);
          // The kernel takes a shortcut when r is p (no frozen frame held): both ways.
          for (bool same_reference : {false, true}) {
            SCOPED_TRACE(testing::Message() << "same reference " << same_reference);
            const uint8_t* rp = same_reference ? p.data() : r.data();
            simd::DifferenceRowSums got;
            simd::differenceRow(c.data(), p.data(), rp, n, full_range ? nullptr : fc.data(), got);
            expectEqual(got, differenceByFormula(c.data(), p.data(), rp, n, full_range));
          }
        }
  });
}

TEST(SimdHealth, RegionSpanSumsEqualTheLoops) {
  test::onEveryTarget([] {
    uint32_t seed = 500;
    for (int n : {0, 1, 15, 16, 17, 63, 64, 65, 1000, 1920})
      for (uint32_t level : {0u, 16u, 254u, 255u, 300u}) {
        SCOPED_TRACE(testing::Message() << n << " level " << level);
        std::vector<uint8_t> c = randomBytes(size_t(n), seed++), p = randomBytes(size_t(n), seed++);
        for (int x = 0; x < n; x += 7) p[size_t(x)] = c[size_t(x)];            // some unchanged
        for (int x = 3; x < n; x += 11) c[size_t(x)] = 255, p[size_t(x)] = 0;  // the largest
        uint64_t luma = 5, changed = 7;  // added to, not overwritten
        simd::regionRowSums(c.data(), p.data(), n, level, luma, changed);
        uint64_t want_luma = 5, want_changed = 7;
        for (int x = 0; x < n; ++x) {
          want_luma += c[size_t(x)];
          want_changed += uint32_t(std::abs(int(c[size_t(x)]) - int(p[size_t(x)]))) > level;
        }
        EXPECT_EQ(luma, want_luma);
        EXPECT_EQ(changed, want_changed);
      }
  });
}

TEST(SimdHealth, SobelRowSumsEqualTheReference) {
  test::onEveryTarget([] {
    uint32_t seed = 100;
    // Past many flushes of the i32 sums (every 16 vectors of up to 16 lanes) too.
    for (int n : {3, 4, 17, 33, 63, 257, 1920, 9001})
      for (int content = 0; content < 6; ++content) {
        SCOPED_TRACE(testing::Message() << n << " content " << content);
        std::vector<uint8_t> f = randomBytes(size_t(n) * 3, seed++);
        if (content == 1) {
          std::fill(f.begin(), f.end(), uint8_t(77));
        } else if (content == 2) {  // vertical 2-pixel 0/255 stripes: m = 1020^2 at every edge
          for (size_t i = 0; i < f.size(); ++i) f[i] = (i % size_t(n)) / 2 % 2 ? 255 : 0;
        } else if (content == 3) {  // faint noise: every m small (|g| < 64)
          for (uint8_t& v : f) v = uint8_t(100 + v % 5);
        } else if (content == 4) {  // flat, faint and strong stretches side by side
          for (size_t i = 0; i < f.size(); ++i) {
            const size_t stretch = (i % size_t(n)) / 20 % 3;
            f[i] = stretch == 0 ? 50 : stretch == 1 ? uint8_t(60 + f[i] % 3) : f[i];
          }
        } else if (content == 5) {  // a camera's noise: m past 4096, mostly within the table
          for (uint8_t& v : f) v = uint8_t(100 + v % 48);
        }
        uint64_t squares = 0, roots = 0;
        Wide96 root_squares, got_root_squares;
        for (int x = 1; x < n - 1; ++x) {
          const uint32_t m = sobelMagnitudeSquared(f.data(), n, x, 1);
          const uint64_t q = sobelRoot(m);
          squares += m;
          roots += q;
          root_squares.add(q * q);
        }
        if (content == 2 && n > 3) {
          EXPECT_EQ(sobelMagnitudeSquared(f.data(), n, 2, 1), 1040400u);
        }
        for (simd::SobelRootWay way : kRootWays) {
          SCOPED_TRACE(way == simd::SobelRootWay::kTable ? "table" : "doubles");
          simd::SobelRowSums got;
          simd::sobelRow(f.data(), f.data() + n, f.data() + 2 * n, n, way, got);
          EXPECT_EQ(got.squares, squares);
          EXPECT_EQ(got.roots, roots);
          // The excess form: sum q^2 = 2^32 sum m + excess.
          got_root_squares.words = {0, uint32_t(got.squares), uint32_t(got.squares >> 32)};
          const uint64_t e = uint64_t(got.root_square_excess);
          got_root_squares.add(Wide96{
              {uint32_t(e), uint32_t(e >> 32), got.root_square_excess < 0 ? 0xffffffffu : 0u}});
          EXPECT_EQ(got_root_squares, root_squares);
        }
      }
  });
}

TEST(SimdHealth, SobelRowSegmentsEqualTheReferenceSums) {
  test::onEveryTarget([] {
    uint32_t seed = 900;
    for (int n : {3, 4, 17, 33, 63, 257, 1920})
      for (int content = 0; content < 3; ++content) {
        std::vector<uint8_t> f = randomBytes(size_t(n) * 3, seed++);
        if (content == 1) {  // a camera's noise: m past 4096, mostly within the table
          for (uint8_t& v : f) v = uint8_t(100 + v % 48);
        } else if (content == 2) {  // vertical 2-pixel 0/255 stripes: m = 1020^2 at every edge
          for (size_t i = 0; i < f.size(); ++i) f[i] = (i % size_t(n)) / 2 % 2 ? 255 : 0;
        }
        std::vector<std::vector<int>> cut_sets = {{1, n - 1}};
        std::vector<int> every, grid;
        for (int x = 1; x <= n - 1; ++x) every.push_back(x);
        if (n <= 257) cut_sets.push_back(every);
        for (int c = 0; c <= 8; ++c) grid.push_back(1 + (n - 2) * c / 8);
        grid.erase(std::unique(grid.begin(), grid.end()), grid.end());
        cut_sets.push_back(grid);
        std::mt19937 rng(seed++);
        for (int draw = 0; draw < 4; ++draw) {  // random segments, some of one pixel
          std::vector<int> cuts = {1, n - 1};
          for (int k = 0; k < 6; ++k) cuts.push_back(1 + int(rng() % uint32_t(n - 1)));
          std::sort(cuts.begin(), cuts.end());
          cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
          cut_sets.push_back(cuts);
        }
        simd::SobelRowSums whole;
        simd::sobelRow(f.data(), f.data() + n, f.data() + 2 * n, n, simd::SobelRootWay::kTable,
                       whole);
        for (simd::SobelRootWay way : kRootWays)
          for (const std::vector<int>& cuts : cut_sets) {
            if (cuts.size() < 2 || cuts.front() >= cuts.back()) continue;  // n = 3: one pixel
            SCOPED_TRACE(testing::Message()
                         << n << " content " << content << " cuts " << cuts.size()
                         << (way == simd::SobelRootWay::kTable ? " table" : " doubles"));
            std::vector<uint64_t> squares(cuts.size() - 1, 0xdeadbeef);
            simd::SobelRowSums got;
            simd::sobelRowSegments(f.data(), f.data() + n, f.data() + 2 * n, cuts.data(),
                                   int(cuts.size()), squares.data(), way, got);
            EXPECT_EQ(got.squares, whole.squares);
            EXPECT_EQ(got.roots, whole.roots);
            EXPECT_EQ(got.root_square_excess, whole.root_square_excess);
            for (size_t k = 0; k + 1 < cuts.size(); ++k) {
              uint64_t want = 0;
              for (int x = cuts[k]; x < cuts[k + 1]; ++x)
                want += sobelMagnitudeSquared(f.data(), n, x, 1);
              EXPECT_EQ(squares[k], want) << "segment " << k;
            }
          }
      }
  });
}

// A run of frames through both backends with --health: a first frame, frames frozen against it
// that still differ from their previous frame (one byte nudged each), a new picture, a repeat.
TEST(CpuExecutorBackend, HealthEqualsTheReferenceOverARun) {
  struct Case {
    PixelFormat format;
    bool full_range;
    const char* channels;
    LumaSource luma;
  };
  const Case cases[] = {
      {PixelFormat::kRGBA32, true, "rgbl", LumaSource::kRgb},
      {PixelFormat::kRGBA32, true, "rgb", LumaSource::kRgb},
      {PixelFormat::kRGB24, true, "l", LumaSource::kSource},
      {PixelFormat::kNV12, false, "rgbl", LumaSource::kRgb},
      {PixelFormat::kNV12, false, "l", LumaSource::kSource},
      {PixelFormat::kNV12, true, "rgbl", LumaSource::kSource},
      {PixelFormat::kYUYV, false, "rg", LumaSource::kRgb},
      {PixelFormat::kGREY, true, "l", LumaSource::kSource},
      {PixelFormat::kSRGGB8, true, "rgbl", LumaSource::kRgb},  // rows from the demosaic
  };
  uint32_t seed = 500;
  for (const Case& c : cases)
    for (auto [w, h] : {std::pair{66, 48}, std::pair{130, 38}})
      for (bool regions : {false, true}) {
        const std::string what =
            std::string(formatName(c.format)) + " " + std::to_string(w) + "x" + std::to_string(h) +
            " " + c.channels + (c.full_range ? " full" : " limited") + (regions ? " regions" : "");
        PipelineConfig config;
        config.histogram.channels = c.channels;
        config.luma = c.luma;
        config.threads = 2;
        config.health = HealthConfig{};
        if (regions) {
          config.health->grid_columns = 3;
          config.health->grid_rows = 2;
          config.health->rois = {HealthRegion{5, 3, 20, 11}};
        }
        config.backend = Backend::kReference;
        Result<std::unique_ptr<Pipeline>> reference = Pipeline::create(config);
        config.backend = Backend::kCpu;
        Result<std::unique_ptr<Pipeline>> cpu = Pipeline::create(config);
        ASSERT_TRUE(reference.ok() && cpu.ok()) << what;
        const Colorimetry colorimetry{YcbcrEncoding::kBt601, c.full_range};
        test::TestFrame a = test::randomFrame(c.format, w, h, 3, colorimetry, seed++);
        test::TestFrame b = test::randomFrame(c.format, w, h, 3, colorimetry, seed++);
        std::vector<test::TestFrame*> run = {&a, &a, &a, &b, &b, &a};
        for (size_t i = 0; i < run.size(); ++i) {
          test::TestFrame& t = *run[i];
          if (i == 1 || i == 2) t.planes[0][i * 8 + 2] ^= 0x40;  // frozen, unlike the previous
          t.frame.sequence = i;
          t.frame.timestamp_ns = i * 40'000'000;
          Result<FrameResult> want = (*reference)->process(t.frame);
          Result<FrameResult> got = (*cpu)->process(t.frame);
          ASSERT_TRUE(want.ok() && got.ok()) << what << " frame " << i;
          ASSERT_TRUE(want->health.has_value()) << what;
          EXPECT_EQ(got->health, want->health) << what << " frame " << i;
          EXPECT_EQ(got->events, want->events) << what << " frame " << i;
          EXPECT_EQ(got->hist, want->hist) << what << " frame " << i;
        }
      }
}

// The luma range changing between frames: the executor's kept F(previous) follows it.
TEST(CpuExecutorBackend, HealthFollowsARangeChangeLikeTheReference) {
  PipelineConfig config;
  config.threads = 2;
  config.health = HealthConfig{};
  config.backend = Backend::kReference;
  Result<std::unique_ptr<Pipeline>> reference = Pipeline::create(config);
  config.backend = Backend::kCpu;
  Result<std::unique_ptr<Pipeline>> cpu = Pipeline::create(config);
  ASSERT_TRUE(reference.ok() && cpu.ok());
  test::TestFrame limited =
      test::randomFrame(PixelFormat::kNV12, 64, 40, 0, {YcbcrEncoding::kBt601, false}, 91);
  test::TestFrame full =
      test::randomFrame(PixelFormat::kNV12, 64, 40, 0, {YcbcrEncoding::kBt601, true}, 92);
  const std::vector<test::TestFrame*> run = {&limited, &full, &limited, &limited, &full, &full};
  for (size_t i = 0; i < run.size(); ++i) {
    test::TestFrame& t = *run[i];
    t.frame.sequence = i;
    t.frame.timestamp_ns = i * 40'000'000;
    Result<FrameResult> want = (*reference)->process(t.frame);
    Result<FrameResult> got = (*cpu)->process(t.frame);
    ASSERT_TRUE(want.ok() && got.ok()) << "frame " << i;
    ASSERT_TRUE(want->health.has_value());
    EXPECT_EQ(got->health, want->health) << "frame " << i;
    EXPECT_EQ(got->events, want->events) << "frame " << i;
  }
}

}  // namespace
}  // namespace esf
