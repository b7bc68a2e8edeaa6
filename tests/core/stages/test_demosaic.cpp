// Bayer demosaic: the CPU reference against hand-worked values and flat frames; the GPU stage
// against the reference, bit for bit, over every CFA order, bit depths 8..16, levels, gains,
// random seeded frames at the smallest and odd-multiple sizes, into a poisoned output.
#include <gtest/gtest.h>

#include "core/image/gpu_image.hpp"
#include "core/stages/demosaic.hpp"
#include "core/stages/demosaic_reference.hpp"
#include "tests/support/gl_test_context.hpp"
#include "tests/support/random_raw.hpp"

namespace esf {
namespace {

using test::randomRaw;

TEST(DemosaicReference, CfaOrdersPlaceRedWhereTheirNamesSay) {
  EXPECT_EQ(cfaColour(CfaOrder::kRGGB, 0, 0), 0);
  EXPECT_EQ(cfaColour(CfaOrder::kRGGB, 1, 1), 2);
  EXPECT_EQ(cfaColour(CfaOrder::kGRBG, 1, 0), 0);
  EXPECT_EQ(cfaColour(CfaOrder::kGRBG, 0, 1), 2);
  EXPECT_EQ(cfaColour(CfaOrder::kGBRG, 0, 1), 0);
  EXPECT_EQ(cfaColour(CfaOrder::kGBRG, 1, 0), 2);
  EXPECT_EQ(cfaColour(CfaOrder::kBGGR, 1, 1), 0);
  EXPECT_EQ(cfaColour(CfaOrder::kBGGR, 2, 2), 2);
  EXPECT_EQ(cfaColour(CfaOrder::kBGGR, 3, 2), 1);
}

// 4x2 RGGB, worked by hand:   R=10  G=20  R=30  G=40
//                             G=50  B=60  G=70  B=80
TEST(DemosaicReference, HandWorkedRggb) {
  const std::vector<uint16_t> raw = {10, 20, 30, 40, 50, 60, 70, 80};
  DemosaicParams p;  // 8 bits, black 0, white 255: values pass through
  Result<RgbaImage> out = demosaicReference(raw, 4, 2, p);
  ASSERT_TRUE(out.ok()) << out.error().message;
  auto rgb = [&](int x, int y) {
    const uint8_t* q = out->at(x, y);
    return std::vector<int>{q[0], q[1], q[2], q[3]};
  };
  // (0,0) R: edges (20 [x=-1 mirrors to 1] + 20 + 50 + 50 [y=-1 mirrors to 1]) / 4 = 35;
  // corners all mirror to B(1,1) = 60.
  EXPECT_EQ(rgb(0, 0), (std::vector<int>{10, 35, 60, 255}));
  // (1,0) G on a red row: R = (10+30+1)>>1 = 20, B = (60+60+1)>>1 = 60.
  EXPECT_EQ(rgb(1, 0), (std::vector<int>{20, 20, 60, 255}));
  // (1,1) B: edges (50+70+20+20+2)>>2 = 40; corners (10+30+10+30+2)>>2 = 20.
  EXPECT_EQ(rgb(1, 1), (std::vector<int>{20, 40, 60, 255}));
  // (2,1) G on a blue row: B = (60+80+1)>>1 = 70, R = (30+30+1)>>1 = 30.
  EXPECT_EQ(rgb(2, 1), (std::vector<int>{30, 70, 70, 255}));
  // (3,1) B at the right edge: x=4 mirrors to 2. edges (70+70+40+40+2)>>2 = 55, corners 30.
  EXPECT_EQ(rgb(3, 1), (std::vector<int>{30, 55, 80, 255}));
}

TEST(DemosaicReference, LevelsAndGains) {
  // A flat 10-bit frame at 600, black 64, white 1023: every channel (600-64)*255/959 rounded.
  const std::vector<uint16_t> flat(6 * 4, 600);
  DemosaicParams p;
  p.bit_depth = 10, p.black = 64, p.white = 1023;
  Result<RgbaImage> out = demosaicReference(flat, 6, 4, p);
  ASSERT_TRUE(out.ok()) << out.error().message;
  const int level = (536 * 255 + 959 / 2) / 959;  // 143
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 6; ++x) {
      EXPECT_EQ(out->at(x, y)[0], level);
      EXPECT_EQ(out->at(x, y)[1], level);
      EXPECT_EQ(out->at(x, y)[2], level);
    }
  // R doubled (512/256), B halved (128/256); below black is 0, above white clips at 255.
  p.gain_r = 512, p.gain_b = 128;
  out = demosaicReference(flat, 6, 4, p);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->at(3, 3)[0], std::min(255, (1072 * 255 + 479) / 959));
  EXPECT_EQ(out->at(3, 3)[2], (268 * 255 + 479) / 959);
  const std::vector<uint16_t> dark(4, 10);
  out = demosaicReference(dark, 2, 2, p);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->at(0, 0)[1], 0);
}

TEST(DemosaicReference, RefusesWhatItCannotDo) {
  DemosaicParams p;
  EXPECT_FALSE(demosaicReference({1}, 1, 1, p).ok());           // under 2x2
  EXPECT_FALSE(demosaicReference({1, 2, 3, 4}, 2, 1, p).ok());  // wrong count
  p.white = 256;                                                // not below 2^8
  EXPECT_FALSE(demosaicReference({1, 2, 3, 4}, 2, 2, p).ok());
  p.white = 255, p.gain_r = 0;
  EXPECT_FALSE(demosaicReference({1, 2, 3, 4}, 2, 2, p).ok());
}

TEST(Demosaic, MatchesReference) {
  GlContext& gl = test::glContext();
  Result<Demosaic> stage = Demosaic::create(gl);
  ASSERT_TRUE(stage.ok()) << stage.error().message;
  struct Size {
    int w, h;
  };
  const Size sizes[] = {{2, 2}, {4, 2}, {2, 6}, {258, 4}, {130, 66}, {640, 480}};
  uint32_t seed = 1;
  for (const Size& s : sizes)
    for (CfaOrder order : test::kCfaOrders)
      for (int bits : {8, 10, 12, 16}) {
        DemosaicParams p;
        p.order = order, p.bit_depth = bits;
        p.white = (1u << bits) - 1;
        if (bits == 10) p.black = 64, p.gain_r = 300, p.gain_b = 700;
        if (bits == 12) p.black = 256, p.white = 3000, p.gain_r = 4096, p.gain_b = 1;
        const std::vector<uint16_t> raw = randomRaw(s.w, s.h, bits, seed++);
        Result<RgbaImage> want = demosaicReference(raw, s.w, s.h, p);
        ASSERT_TRUE(want.ok()) << want.error().message;
        RgbaImage poison(s.w, s.h);
        std::fill(poison.pixels.begin(), poison.pixels.end(), uint8_t(0xA5));
        Result<GpuImage> out = GpuImage::fromImage(poison);
        ASSERT_TRUE(out.ok());
        ASSERT_TRUE(stage->upload(raw, s.w, s.h).ok());
        Status run = stage->run(p, *out);
        ASSERT_TRUE(run.ok()) << run.error().message;
        Result<RgbaImage> got = out->download();
        ASSERT_TRUE(got.ok());
        ASSERT_TRUE(*got == *want)
            << s.w << "x" << s.h << " order " << int(order) << " bits " << bits;
      }
}

}  // namespace
}  // namespace esf
