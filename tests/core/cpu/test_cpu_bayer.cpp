// The CPU executor's demosaic and raw statistics against the plain references
// (demosaicReference, rawSiteHistograms), bit for bit, on every instruction set: every CFA order,
// 8..16 bits, levels and gains, random seeded frames at the smallest, odd and one-row-per-band
// sizes, flat frames of every level against the formula, into a poisoned image, at every thread
// count; each row handed on exactly once, already written.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/cpu/cpu_bayer.hpp"
#include "core/cpu/simd_bayer.hpp"
#include "tests/core/cpu/cpu_test_util.hpp"
#include "tests/support/random_raw.hpp"

namespace esf {
namespace {

using test::randomRaw;

// `check(pool, order, threads, seed)` on every instruction set, thread count and CFA order; `seed`
// runs on from `first_seed`, afresh on each target. A target stops at its first fatal failure.
template <class Check>
void onEveryTargetPoolAndOrder(uint32_t first_seed, const Check& check) {
  test::onEveryTarget([&] {
    uint32_t seed = first_seed;
    for (int threads : test::kThreadCounts) {
      RowPool pool(threads);
      for (CfaOrder order : test::kCfaOrders) {
        check(pool, order, threads, seed);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  });
}

TEST(CpuBayer, MatchesTheReference) {
  const struct { int w, h; } sizes[] = {{2, 2}, {3, 2}, {2, 7}, {5, 3}, {257, 3}, {64, 48}};
  const struct {
    int bits;
    uint32_t black, white, gain_r, gain_b;
  } levels[] = {{8, 0, 255, 256, 256},
                {10, 64, 1023, 256, 256},
                {12, 240, 4000, 512, 300},
                {16, 4096, 65535, 1, 4096},
                {10, 0, 700, 256, 128}};
  onEveryTargetPoolAndOrder(1, [&](RowPool& pool, CfaOrder order, int threads, uint32_t& seed) {
    for (const auto& l : levels)
      for (const auto& s : sizes) {
        SCOPED_TRACE(testing::Message() << "order " << int(order) << " bits " << l.bits << " "
                                        << s.w << "x" << s.h << " threads " << threads);
        DemosaicParams p;
        p.order = order, p.bit_depth = l.bits, p.black = l.black, p.white = l.white;
        p.gain_r = l.gain_r, p.gain_b = l.gain_b;
        const std::vector<uint16_t> raw = randomRaw(s.w, s.h, l.bits, seed++);
        Result<RgbaImage> want = demosaicReference(raw, s.w, s.h, p);
        ASSERT_TRUE(want.ok()) << want.error().message;
        RgbaImage got = test::poisonedImage(s.w, s.h);
        std::vector<int> rows_seen(size_t(s.h), 0);
        Status st = demosaicCpu(raw, s.w, s.h, p, got, pool,
                                [&](int y, const uint8_t* rgba, const uint8_t* luma, int) {
                                  ++rows_seen[size_t(y)];
                                  EXPECT_EQ(luma, nullptr);
                                  EXPECT_EQ(rgba, got.at(0, y));
                                });
        ASSERT_TRUE(st.ok()) << st.error().message;
        ASSERT_EQ(got.pixels, want->pixels);
        for (int n : rows_seen) ASSERT_EQ(n, 1);
      }
  });
}

TEST(CpuBayer, FlatFramesOfEveryLevelAgainstTheFormula) {
  // A flat frame of value v is v at every site and every mean: each channel is v's level, worked
  // out here independently: (v - black) * gain / 256 rounded, then * 255 / (white - black)
  // rounded and clamped. Every 10-bit value, and 16-bit values in steps of 127 from `first` with
  // the range's ends; 37 columns put vector lanes and a tail on every target. The last case
  // passes s = 51865 of range 53872, one of the few whose float quotient truncates one too high.
  struct Case {
    int bits;
    uint32_t black, white, gain_r, gain_b, first, step;
  };
  const Case cases[] = {{10, 64, 1023, 300, 128, 0, 1},
                        {16, 0, 65535, 4096, 1, 0, 127},
                        {16, 4096, 60000, 256, 700, 0, 127},
                        {16, 0, 53872, 256, 256, 49, 127}};
  const int w = 37, h = 4;
  RowPool pool(1);  // thousands of small frames: no hand-offs
  test::onEveryTarget([&] {
    for (const Case& c : cases) {
      DemosaicParams p;
      p.bit_depth = c.bits, p.black = c.black, p.white = c.white;
      p.gain_r = c.gain_r, p.gain_b = c.gain_b;
      const uint32_t top = (1u << c.bits) - 1, range = c.white - c.black;
      auto level = [&](uint32_t v, uint32_t gain) {
        const uint64_t s = v <= c.black ? 0 : (uint64_t(v - c.black) * gain + 128) / 256;
        return int(
            std::min<uint64_t>((std::min<uint64_t>(s, range) * 255 + range / 2) / range, 255));
      };
      RgbaImage got(w, h);
      for (uint32_t v = c.first; v <= top; v = v + c.step > top && v < top ? top : v + c.step) {
        SCOPED_TRACE(testing::Message() << c.bits << " bits, value " << v);
        ASSERT_TRUE(
            demosaicCpu(std::vector<uint16_t>(size_t(w * h), uint16_t(v)), w, h, p, got, pool)
                .ok());
        const int want[] = {level(v, c.gain_r), level(v, 256), level(v, c.gain_b), 255};
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x)
            for (int ch = 0; ch < 4; ++ch) ASSERT_EQ(got.at(x, y)[ch], want[ch]) << x << "," << y;
      }
    }
  });
}

TEST(CpuBayer, RawStatisticsEqualTheReference) {
  const struct { int w, h; } sizes[] = {{1, 1}, {3, 2}, {257, 3}, {64, 5}, {33, 17}};
  const struct {
    int bits;
    uint32_t black, white;
  } levels[] = {{8, 0, 0}, {10, 64, 1000}, {12, 256, 4095}, {16, 0, 65535}, {16, 4096, 60000}};
  onEveryTargetPoolAndOrder(50, [&](RowPool& pool, CfaOrder order, int threads, uint32_t& seed) {
    for (const auto& l : levels)
      for (int bins : {1, 7, 255, 256})
        for (const auto& s : sizes) {
          SCOPED_TRACE(testing::Message()
                       << "order " << int(order) << " bits " << l.bits << " bins " << bins << " "
                       << s.w << "x" << s.h << " threads " << threads);
          const std::vector<uint16_t> raw = randomRaw(s.w, s.h, l.bits, seed++);
          const RawLevels rl{l.black, l.white};
          auto want = rawSiteHistograms(raw, s.w, s.h, order, l.bits, rl, bins);
          ASSERT_TRUE(want.ok()) << want.error().message;
          auto got = rawSiteHistogramsCpu(raw, s.w, s.h, order, l.bits, rl, bins, pool);
          ASSERT_TRUE(got.ok()) << got.error().message;
          ASSERT_EQ(*got, *want);
        }
  });
}

TEST(CpuBayer, RawBinsOfEveryValue) {
  // Every 16-bit value in one row (its length not a multiple of any vector), against the bin
  // s * bins / span and the clip flags worked out here. Span 52275 in 256 bins has values whose
  // float quotient truncates one too high (s = 51254), most spans some that truncate one too low.
  std::vector<uint16_t> row(65536 - 3);
  for (size_t i = 0; i < row.size(); ++i) row[i] = uint16_t(i * 40503u);  // odd: all distinct
  const simd::RawBinning binnings[] = {{0, 65535, 65536, 256},
                                       {4096, 60000, 55905, 7},
                                       {1, 2, 2, 256},
                                       {0, 65534, 65535, 255},
                                       {0, 52274, 52275, 256}};
  test::onEveryTarget([&] {
    for (const simd::RawBinning& b : binnings) {
      SCOPED_TRACE(testing::Message() << b.black << ".." << b.white << " in " << b.bins);
      std::vector<uint8_t> got(row.size(), 0xee);
      uint64_t crushed[2] = {0, 0}, clipped[2] = {0, 0};
      simd::rawBinsOfRow(row.data(), int(row.size()), b, got.data(), crushed, clipped);
      uint64_t want_crushed[2] = {0, 0}, want_clipped[2] = {0, 0};
      for (size_t x = 0; x < row.size(); ++x) {
        const uint64_t v = row[x];
        const uint64_t s = std::clamp<uint64_t>(v, b.black, b.white) - b.black;
        ASSERT_EQ(got[x], s * b.bins / (uint64_t(b.white) - b.black + 1)) << "value " << v;
        want_crushed[x % 2] += v <= b.black, want_clipped[x % 2] += v >= b.white;
      }
      EXPECT_EQ(crushed[0], want_crushed[0]);
      EXPECT_EQ(crushed[1], want_crushed[1]);
      EXPECT_EQ(clipped[0], want_clipped[0]);
      EXPECT_EQ(clipped[1], want_clipped[1]);
    }
  });
}

TEST(CpuBayer, RefusesWhatTheReferenceRefuses) {
  RowPool pool(1);
  DemosaicParams p;
  RgbaImage out = test::poisonedImage(1, 1);
  const RgbaImage before = out;
  Status s = demosaicCpu({7}, 1, 1, p, out, pool);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("at least 2x2"), std::string::npos) << s.error().message;
  EXPECT_EQ(out.pixels, before.pixels);  // nothing written
  p.white = 300;                         // above 2^8 - 1
  EXPECT_FALSE(demosaicCpu(std::vector<uint16_t>(4, 0), 2, 2, p, out, pool).ok());
  p.white = 255;
  EXPECT_FALSE(demosaicCpu(std::vector<uint16_t>(3, 0), 2, 2, p, out, pool).ok());
  // The raw statistics fail with the reference's line.
  const std::vector<uint16_t> raw(4, 0);
  for (auto [white, bins] : {std::pair{1024u, 4}, std::pair{0u, 0}, std::pair{0u, 257}}) {
    auto want = rawSiteHistograms(raw, 2, 2, CfaOrder::kRGGB, 10, {64, white}, bins);
    auto got = rawSiteHistogramsCpu(raw, 2, 2, CfaOrder::kRGGB, 10, {64, white}, bins, pool);
    ASSERT_FALSE(want.ok());
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error().message, want.error().message);
  }
  EXPECT_FALSE(rawSiteHistogramsCpu(raw, 3, 2, CfaOrder::kRGGB, 10, {}, 4, pool).ok());
}

}  // namespace
}  // namespace esf
