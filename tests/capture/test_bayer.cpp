// Bayer raw: CFA sites, unpacking every V4L2 layout (MIPI CSI-2 10P/12P on synthetic frames
// packed here from the spec, and hand-worked bytes), and the per-site raw histograms with black
// and white levels against counts taken by hand.
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <random>

#include "capture/frame_encode.hpp"
#include "core/import/bayer_unpack.hpp"
#include "core/stats/raw_histogram.hpp"

namespace esf {
namespace {

std::vector<uint16_t> randomValues(size_t n, int bits, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint16_t> v(n);
  for (auto& x : v) x = uint16_t(rng() & ((1u << bits) - 1));
  return v;
}

// MIPI CSI-2 RAW10/RAW12 as the spec draws them: a group's 8 high bits per pixel, then the
// low bits of pixel 0 in the lowest bits of the last byte.
std::vector<uint8_t> packCsi2Row(const uint16_t* values, int width, int bits) {
  const int group = bits == 10 ? 4 : 2, low = bits - 8;
  std::vector<uint8_t> out;
  for (int g = 0; g < width / group; ++g) {
    uint8_t lows = 0;
    for (int i = 0; i < group; ++i) {
      const uint16_t v = values[g * group + i];
      out.push_back(uint8_t(v >> low));
      lows = uint8_t(lows | ((v & ((1 << low) - 1)) << (i * low)));
    }
    out.push_back(lows);
  }
  return out;
}

TEST(Bayer, SitesOfEachOrder) {
  EXPECT_EQ(cfaSite(CfaOrder::kRGGB, 0, 0), CfaSite::kR);
  EXPECT_EQ(cfaSite(CfaOrder::kRGGB, 1, 0), CfaSite::kGr);
  EXPECT_EQ(cfaSite(CfaOrder::kRGGB, 0, 1), CfaSite::kGb);
  EXPECT_EQ(cfaSite(CfaOrder::kRGGB, 1, 1), CfaSite::kB);
  EXPECT_EQ(cfaSite(CfaOrder::kBGGR, 0, 0), CfaSite::kB);
  EXPECT_EQ(cfaSite(CfaOrder::kBGGR, 1, 0), CfaSite::kGb);
  EXPECT_EQ(cfaSite(CfaOrder::kGRBG, 0, 0), CfaSite::kGr);
  EXPECT_EQ(cfaSite(CfaOrder::kGRBG, 1, 0), CfaSite::kR);
  EXPECT_EQ(cfaSite(CfaOrder::kGBRG, 0, 0), CfaSite::kGb);
  EXPECT_EQ(cfaSite(CfaOrder::kGBRG, 0, 1), CfaSite::kR);
  EXPECT_EQ(cfaSite(CfaOrder::kGBRG, 3, 3), CfaSite::kGr);
}

TEST(Bayer, HandWorkedPackedBytes) {
  const BayerRowLayout p10{10, 5, 4}, p12{12, 3, 2};
  const uint8_t raw10[] = {0x12, 0x34, 0x56, 0x78, 0b11100100};
  uint16_t out[4] = {};
  unpackBayerRow(raw10, 4, p10, out);
  EXPECT_EQ(out[0], 0x12 << 2 | 0);
  EXPECT_EQ(out[1], 0x34 << 2 | 1);
  EXPECT_EQ(out[2], 0x56 << 2 | 2);
  EXPECT_EQ(out[3], 0x78 << 2 | 3);
  const uint8_t raw12[] = {0xAB, 0xCD, 0x3F};
  unpackBayerRow(raw12, 2, p12, out);
  EXPECT_EQ(out[0], 0xABF);
  EXPECT_EQ(out[1], 0xCD3);
  const uint8_t raw16[] = {0xFF, 0x03, 0x34, 0xFC};  // 10 bits in 16: high bits masked off
  unpackBayerRow(raw16, 2, BayerRowLayout{10, 2, 1}, out);
  EXPECT_EQ(out[0], 1023);
  EXPECT_EQ(out[1], 0x0034);
}

// Synthetic packed frames with padded rows round-trip through unpackBayer.
TEST(Bayer, PackedFramesUnpackToTheirValues) {
  for (int bits : {10, 12}) {
    const BayerRowLayout layout{bits, bits == 10 ? 5 : 3, bits == 10 ? 4 : 2};
    for (int width : {4, 12, 644}) {
      const int height = 3, pad = 7;
      const std::vector<uint16_t> values = randomValues(size_t(width) * height, bits, 5);
      std::vector<uint8_t> frame;
      int stride = 0;
      for (int y = 0; y < height; ++y) {
        std::vector<uint8_t> row = packCsi2Row(&values[size_t(y) * width], width, bits);
        stride = int(row.size()) + pad;
        row.resize(size_t(stride), 0xEE);
        frame.insert(frame.end(), row.begin(), row.end());
      }
      EXPECT_EQ(size_t(stride - pad), layout.rowBytes(width));
      auto got = unpackBayer(frame.data(), frame.size(), stride, width, height, layout);
      ASSERT_TRUE(got.ok()) << got.error().message;
      EXPECT_EQ(*got, values) << bits << " bits, width " << width;
    }
  }
  // Byte and word layouts at widths around the unpacking's blocks of 16, set high bits of the
  // words masked off, the rows in parts as a thread pool's bands call them.
  for (const BayerRowLayout layout :
       {BayerRowLayout{8, 1, 1}, BayerRowLayout{10, 2, 1}, BayerRowLayout{16, 2, 1}}) {
    for (int width : {1, 15, 16, 17, 50, 644}) {
      const int height = 5, stride = int(layout.rowBytes(width)) + 3;
      const std::vector<uint16_t> values =
          randomValues(size_t(width) * height, layout.bit_depth, uint32_t(width));
      std::vector<uint8_t> frame(size_t(stride) * height, 0xEE);
      for (int y = 0; y < height; ++y) {
        uint8_t* row = &frame[size_t(y) * size_t(stride)];
        packBayerRow(&values[size_t(y) * width], width, layout, row);
        if (layout.bytes_per_sample == 2 && layout.bit_depth < 16)
          for (int x = 0; x < width; ++x) row[2 * x + 1] |= uint8_t(0xff << (layout.bit_depth - 8));
      }
      int splits = 0;
      const RowSplitter two_parts = [&](int count, const std::function<void(int, int)>& rows) {
        ++splits;
        EXPECT_EQ(count, height);
        rows(count / 2, count);
        rows(0, count / 2);
      };
      auto got = unpackBayer(frame.data(), frame.size(), stride, width, height, layout, two_parts);
      ASSERT_TRUE(got.ok()) << got.error().message;
      EXPECT_EQ(*got, values) << layout.bit_depth << " bits, width " << width;
      EXPECT_EQ(splits, 1);
    }
  }
  const BayerRowLayout p10{10, 5, 4};
  EXPECT_FALSE(p10.validate(6).ok());  // not whole groups
  EXPECT_FALSE((BayerRowLayout{11, 5, 4}).validate(8).ok());
  std::vector<uint8_t> short_frame(9);
  EXPECT_FALSE(unpackBayer(short_frame.data(), short_frame.size(), 5, 4, 2, p10).ok());
}

TEST(RawSiteHistograms, EightBitIdentityAgainstCountsByPosition) {
  const int w = 6, h = 4;
  const std::vector<uint16_t> raw = randomValues(size_t(w) * h, 8, 9);
  auto got = rawSiteHistograms(raw, w, h, CfaOrder::kGRBG, 8, {}, 256);
  ASSERT_TRUE(got.ok()) << got.error().message;
  // GRBG: row 0 is G R G R (those G are Gr), row 1 is B G B G (Gb).
  std::array<std::vector<uint32_t>, 4> want;
  for (auto& c : want) c.assign(256, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int site = y % 2 == 0 ? (x % 2 == 0 ? 1 : 0) : (x % 2 == 0 ? 3 : 2);
      ++want[size_t(site)][raw[size_t(y * w + x)]];
    }
  EXPECT_EQ(got->counts, want);
  for (uint64_t n : got->pixels) EXPECT_EQ(n, 6u);
}

TEST(RawSiteHistograms, LevelsBinsAndClipping) {
  // 10-bit RGGB 2x2, black 64, white 1000, 4 bins over 937 values (bin width 234.25).
  const std::vector<uint16_t> raw = {10, 64 + 234, 64 + 235, 1023};
  auto got = rawSiteHistograms(raw, 2, 2, CfaOrder::kRGGB, 10, {64, 1000}, 4);
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(got->counts[0], (std::vector<uint32_t>{1, 0, 0, 0}));  // R 10: below black
  EXPECT_EQ(got->counts[1], (std::vector<uint32_t>{1, 0, 0, 0}));  // Gr 234*4/937 = 0
  EXPECT_EQ(got->counts[2], (std::vector<uint32_t>{0, 1, 0, 0}));  // Gb 235*4/937 = 1
  EXPECT_EQ(got->counts[3], (std::vector<uint32_t>{0, 0, 0, 1}));  // B clipped at white
  EXPECT_EQ(got->crushed, (std::array<uint64_t, 4>{1, 0, 0, 0}));
  EXPECT_EQ(got->clipped, (std::array<uint64_t, 4>{0, 0, 0, 1}));
  EXPECT_FALSE(rawSiteHistograms(raw, 2, 2, CfaOrder::kRGGB, 10, {64, 1024}, 4).ok());
  EXPECT_FALSE(rawSiteHistograms(raw, 2, 2, CfaOrder::kRGGB, 10, {64, 64}, 4).ok());
  EXPECT_FALSE(rawSiteHistograms(raw, 2, 2, CfaOrder::kRGGB, 10, {}, 0).ok());
}

TEST(RawSiteHistograms, EveryOrderLevelAndBinCountAgainstThePlainFormula) {
  // Seeded random values of every order at odd sizes against each pixel's site, bin
  // s * bins / span and clip flags worked out here, pixel by pixel.
  struct Levels {
    int bits;
    uint32_t black, white;
  };
  const Levels levels[] = {{8, 0, 255}, {10, 64, 1000}, {12, 256, 4095}, {16, 4096, 60000}};
  const std::pair<int, int> sizes[] = {{1, 1}, {3, 2}, {257, 3}, {64, 5}};
  uint32_t seed = 21;
  for (CfaOrder order : {CfaOrder::kRGGB, CfaOrder::kGRBG, CfaOrder::kGBRG, CfaOrder::kBGGR})
    for (const Levels& l : levels)
      for (int bins : {1, 7, 64, 256})
        for (auto [w, h] : sizes) {
          SCOPED_TRACE(testing::Message() << "order " << int(order) << " bits " << l.bits
                                          << " bins " << bins << " " << w << "x" << h);
          const std::vector<uint16_t> raw = randomValues(size_t(w) * size_t(h), l.bits, seed++);
          auto got = rawSiteHistograms(raw, w, h, order, l.bits, {l.black, l.white}, bins);
          ASSERT_TRUE(got.ok()) << got.error().message;
          std::array<std::vector<uint32_t>, 4> counts;
          for (auto& c : counts) c.assign(size_t(bins), 0);
          std::array<uint64_t, 4> pixels{}, crushed{}, clipped{};
          const uint64_t span = uint64_t(l.white - l.black) + 1;
          for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
              // Red where x and y have the order's red parity, blue where neither does.
              const bool red_x = (x % 2) == (order == CfaOrder::kGRBG || order == CfaOrder::kBGGR);
              const bool red_y = (y % 2) == (order == CfaOrder::kGBRG || order == CfaOrder::kBGGR);
              const size_t site = red_x && red_y     ? 0  // R
                                  : !red_x && !red_y ? 3  // B
                                  : red_y            ? 1  // Gr: on a red row
                                                     : 2;            // Gb
              const uint32_t v = raw[size_t(y) * size_t(w) + size_t(x)];
              const uint64_t level = v <= l.black ? 0 : (v >= l.white ? l.white : v) - l.black;
              ++counts[site][size_t(level * uint64_t(bins) / span)];
              ++pixels[site];
              crushed[site] += v <= l.black;
              clipped[site] += v >= l.white;
            }
          EXPECT_EQ(got->counts, counts);
          EXPECT_EQ(got->pixels, pixels);
          EXPECT_EQ(got->crushed, crushed);
          EXPECT_EQ(got->clipped, clipped);
        }
}

}  // namespace
}  // namespace esf
