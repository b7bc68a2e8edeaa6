// Where the processed frame goes on the primary plane (core/outputs/drm_frame.hpp): the
// aspect-kept fit and the nearest-neighbour source index, against cases worked by hand; and
// frame.frag against a plain CPU loop, bit for bit, at odd sizes on random data.
#include <gtest/gtest.h>

#include <random>
#include <utility>

#include "core/outputs/drm_frame.hpp"
#include "core/outputs/graph_renderer.hpp"
#include "tests/core/outputs/graph_test_util.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

TEST(DrmFrameFit, HandWorkedCases) {
  // 4:3 on 4:3: the whole screen.
  EXPECT_EQ(fitRect(640, 480, 1024, 768), (FitRect{0, 0, 1024, 768}));
  // 16:9 on 1024x768: 1024 wide, 1024 * 9 / 16 = 576 tall, (768 - 576) / 2 = 96 bars.
  EXPECT_EQ(fitRect(1920, 1080, 1024, 768), (FitRect{0, 96, 1024, 576}));
  // 157x91 on 1024x768 (wider than 4:3): 91 * 1024 / 157 = 593.53 -> 594; (768 - 594) / 2 = 87.
  EXPECT_EQ(fitRect(157, 91, 1024, 768), (FitRect{0, 87, 1024, 594}));
  // Portrait 3x5 on 800x600: 600 tall, 3 * 600 / 5 = 360 wide, (800 - 360) / 2 = 220.
  EXPECT_EQ(fitRect(3, 5, 800, 600), (FitRect{220, 0, 360, 600}));
  // 1x1 on 1024x768: a 768 square, bars of 128.
  EXPECT_EQ(fitRect(1, 1, 1024, 768), (FitRect{128, 0, 768, 768}));
  // 257x3 on 1024x768: 3 * 1024 / 257 = 11.95 -> 12 rows at (768 - 12) / 2 = 378.
  EXPECT_EQ(fitRect(257, 3, 1024, 768), (FitRect{0, 378, 1024, 12}));
  // A very wide strip keeps at least one row: 10000x1 on 100x100 -> 0.01 -> 1 row at 49.
  EXPECT_EQ(fitRect(10000, 1, 100, 100), (FitRect{0, 49, 100, 1}));
  // Odd bar split: 2x1 on 5x5 -> 5 x 2.5 -> 3 rows (round half up), (5 - 3) / 2 = 1.
  EXPECT_EQ(fitRect(2, 1, 5, 5), (FitRect{0, 1, 5, 3}));
  // Empty sizes give an empty rect, no division by zero.
  EXPECT_EQ(fitRect(0, 10, 100, 100), FitRect{});
  EXPECT_EQ(fitRect(10, 10, 100, 0), FitRect{});
}

TEST(DrmFrameFit, SourceIndexIsThePixelUnderTheCentre) {
  // Upscale 3 -> 7: centres at (d + 0.5) * 3 / 7 = 0.21 0.64 1.07 1.5 1.93 2.36 2.79.
  const int up[7] = {0, 0, 1, 1, 1, 2, 2};
  for (int d = 0; d < 7; ++d) EXPECT_EQ(fitSourceIndex(d, 3, 7), up[d]) << d;
  // Downscale 10 -> 4: centres at 1.25 3.75 6.25 8.75.
  const int down[4] = {1, 3, 6, 8};
  for (int d = 0; d < 4; ++d) EXPECT_EQ(fitSourceIndex(d, 10, 4), down[d]) << d;
  // Same size: the identity.
  for (int d = 0; d < 257; ++d) EXPECT_EQ(fitSourceIndex(d, 257, 257), d);
}

// The screen the scaler must draw, by a plain loop: inside the fit, the source pixel under the
// centre of each screen pixel (row 0 the top on both sides), opaque; black elsewhere.
RgbaImage scaledReference(const RgbaImage& src, int dst_w, int dst_h) {
  const FitRect fit = fitRect(src.width, src.height, dst_w, dst_h);
  RgbaImage out(dst_w, dst_h);
  for (int y = 0; y < dst_h; ++y)
    for (int x = 0; x < dst_w; ++x) {
      uint8_t* o = out.at(x, y);
      o[3] = 255;
      if (x < fit.x || y < fit.y || x >= fit.x + fit.width || y >= fit.y + fit.height) continue;
      const uint8_t* s = src.at(fitSourceIndex(x - fit.x, src.width, fit.width),
                                fitSourceIndex(y - fit.y, src.height, fit.height));
      for (int k = 0; k < 3; ++k) o[k] = s[k];
    }
  return out;
}

TEST(DrmFrameScaler, GpuMatchesCpuLoopAtOddSizes) {
  test::glContext();
  Result<FrameScaler> scaler = FrameScaler::create();
  ASSERT_TRUE(scaler.ok()) << scaler.error().message;
  std::mt19937 rng(1234);
  const std::pair<int, int> sources[] = {{1, 1}, {257, 3}, {31, 17}, {3, 50}};
  const std::pair<int, int> screens[] = {{64, 48}, {100, 100}, {257, 3}, {7, 33}};
  for (const auto& [sw, sh] : sources) {
    RgbaImage src(sw, sh);
    for (uint8_t& v : src.pixels) v = uint8_t(rng());
    GlTexture texture = makeTexture();
    glBindTexture(GL_TEXTURE_2D, texture.get());
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, sw, sh);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, sw, sh, GL_RGBA, GL_UNSIGNED_BYTE, src.pixels.data());
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    for (const auto& [dw, dh] : screens) {
      // Poison: every pixel must be drawn over.
      const test::PoisonedTarget target = test::bindPoisonedTarget(dw, dh, 0.1f, 0.2f, 0.3f, 0.4f);
      Status drawn = scaler->draw(texture.get(), sw, sh, dw, dh);
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      ASSERT_TRUE(drawn.ok()) << drawn.error().message;
      Result<RgbaImage> got = readTexture(target.texture.get(), dw, dh);
      ASSERT_TRUE(got.ok()) << got.error().message;
      const RgbaImage want = scaledReference(src, dw, dh);
      int bad = 0;
      for (size_t i = 0; i < want.pixels.size(); ++i) bad += got->pixels[i] != want.pixels[i];
      EXPECT_EQ(bad, 0) << sw << "x" << sh << " on " << dw << "x" << dh;
    }
  }
}

}  // namespace
}  // namespace esf
