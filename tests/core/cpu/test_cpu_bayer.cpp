// The CPU executor's demosaic against the plain reference (demosaicReference), bit for bit: every
// CFA order, 8..16 bits, levels and gains, random seeded frames at the smallest, odd and
// one-row-per-band sizes, flat frames, into a poisoned image, at every thread count; each row
// handed on exactly once, already written.
#include <gtest/gtest.h>

#include <random>

#include "core/cpu/cpu_bayer.hpp"
#include "tests/core/cpu/cpu_test_util.hpp"

namespace esf {
namespace {

constexpr CfaOrder kOrders[] = {CfaOrder::kRGGB, CfaOrder::kGRBG, CfaOrder::kGBRG, CfaOrder::kBGGR};

std::vector<uint16_t> randomRaw(int w, int h, int bits, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint16_t> v(size_t(w) * size_t(h));
  for (auto& x : v) x = uint16_t(rng() & ((1u << bits) - 1));
  return v;
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
  uint32_t seed = 1;
  for (int threads : test::kThreadCounts) {
    RowPool pool(threads);
    for (CfaOrder order : kOrders)
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
  }
}

TEST(CpuBayer, FlatFramesStayFlat) {
  RowPool pool(2);
  for (uint16_t v : {uint16_t(0), uint16_t(64), uint16_t(600), uint16_t(1023)}) {
    DemosaicParams p;
    p.bit_depth = 10, p.black = 64, p.white = 1023;
    const std::vector<uint16_t> raw(size_t(9 * 4), v);
    RgbaImage got = test::poisonedImage(9, 4);
    ASSERT_TRUE(demosaicCpu(raw, 9, 4, p, got, pool).ok());
    // An independent figure: (v - black) * 255 / (white - black), rounded, clamped at 0.
    const int want = v <= 64 ? 0 : int((uint32_t(v - 64) * 255 + 959 / 2) / 959);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 9; ++x) {
        const uint8_t* px = got.at(x, y);
        ASSERT_EQ(px[0], want);
        ASSERT_EQ(px[1], want);
        ASSERT_EQ(px[2], want);
        ASSERT_EQ(px[3], 255);
      }
  }
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
}

}  // namespace
}  // namespace esf
