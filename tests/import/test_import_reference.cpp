// The CPU reference against independent derivations: the YUV matrix in floating point, the
// range end points, and byte orders written out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "capture/frame_encode.hpp"
#include "capture/pixel_format.hpp"
#include "core/import/import_reference.hpp"

namespace esf {
namespace {

// Y'CbCr -> R'G'B' straight from ITU-R BT.601/BT.709, in double precision.
void floatYuvToRgb(const Colorimetry& c, int y, int cb, int cr, double* rgb) {
  const double kr = c.encoding == YcbcrEncoding::kBt709 ? 0.2126 : 0.299;
  const double kb = c.encoding == YcbcrEncoding::kBt709 ? 0.0722 : 0.114;
  const double kg = 1 - kr - kb;
  const double yn = c.full_range ? y / 255.0 : (y - 16) / 219.0;
  const double pb = c.full_range ? (cb - 128) / 255.0 : (cb - 128) / 224.0;
  const double pr = c.full_range ? (cr - 128) / 255.0 : (cr - 128) / 224.0;
  const double r = yn + 2 * (1 - kr) * pr;
  const double b = yn + 2 * (1 - kb) * pb;
  const double g = (yn - kr * r - kb * b) / kg;
  for (int i = 0; i < 3; ++i)
    rgb[i] = std::clamp((i == 0 ? r : i == 1 ? g : b) * 255.0, 0.0, 255.0);
}

const Colorimetry kAll[] = {{YcbcrEncoding::kBt601, false},
                            {YcbcrEncoding::kBt601, true},
                            {YcbcrEncoding::kBt709, false},
                            {YcbcrEncoding::kBt709, true}};

TEST(ImportReference, IntegerMatrixRoundsTheStandardMatrix) {
  for (const auto& c : kAll) {
    const YuvCoefficients k = yuvCoefficients(c);
    for (int y = 0; y < 256; y += 3)
      for (int cb = 0; cb < 256; cb += 5)
        for (int cr = 0; cr < 256; cr += 7) {
          uint8_t got[3];
          double want[3];
          yuvToRgb(k, y, cb, cr, got);
          floatYuvToRgb(c, y, cb, cr, want);
          for (int i = 0; i < 3; ++i)
            ASSERT_LE(std::fabs(got[i] - want[i]), 0.52)
                << colorimetryName(c) << " Y=" << y << " Cb=" << cb << " Cr=" << cr << " ch " << i;
        }
  }
}

TEST(ImportReference, RangeEndPoints) {
  uint8_t rgb[3];
  for (auto enc : {YcbcrEncoding::kBt601, YcbcrEncoding::kBt709}) {
    yuvToRgb(yuvCoefficients({enc, false}), 16, 128, 128, rgb);
    EXPECT_EQ(rgb[0] + rgb[1] + rgb[2], 0);
    yuvToRgb(yuvCoefficients({enc, false}), 235, 128, 128, rgb);
    EXPECT_EQ(rgb[0] & rgb[1] & rgb[2], 255);
    yuvToRgb(yuvCoefficients({enc, true}), 0, 128, 128, rgb);
    EXPECT_EQ(rgb[0] + rgb[1] + rgb[2], 0);
    yuvToRgb(yuvCoefficients({enc, true}), 255, 128, 128, rgb);
    EXPECT_EQ(rgb[0] & rgb[1] & rgb[2], 255);
    yuvToRgb(yuvCoefficients({enc, true}), 77, 128, 128, rgb);  // grey stays grey
    EXPECT_TRUE(rgb[0] == 77 && rgb[1] == 77 && rgb[2] == 77);
  }
}

TEST(ImportReference, ByteOrdersWrittenOut) {
  // One pixel, bytes 10 20 30 40 in memory; what each format calls R, G, B, A (V4L2 docs).
  const uint8_t px[4] = {10, 20, 30, 40};
  struct Case {
    PixelFormat f;
    uint8_t r, g, b, a;
  } cases[] = {{PixelFormat::kRGBA32, 10, 20, 30, 40}, {PixelFormat::kRGB24, 10, 20, 30, 255},
               {PixelFormat::kBGR24, 30, 20, 10, 255}, {PixelFormat::kXRGB32, 20, 30, 40, 255},
               {PixelFormat::kARGB32, 20, 30, 40, 10}, {PixelFormat::kXBGR32, 30, 20, 10, 255},
               {PixelFormat::kABGR32, 30, 20, 10, 40}, {PixelFormat::kGREY, 10, 10, 10, 255}};
  for (const auto& c : cases) {
    Frame f;
    f.format = c.f;
    f.width = f.height = 1;
    ASSERT_TRUE(attachTightPlanes(f, px, sizeof px).ok());
    auto img = convertToRgbaCpu(f);
    ASSERT_TRUE(img.ok()) << img.error().message;
    const uint8_t* p = img->at(0, 0);
    EXPECT_EQ(p[0], c.r) << formatName(c.f);
    EXPECT_EQ(p[1], c.g) << formatName(c.f);
    EXPECT_EQ(p[2], c.b) << formatName(c.f);
    EXPECT_EQ(p[3], c.a) << formatName(c.f);
  }
}

TEST(ImportReference, EncodeThenConvertRoundTripsClosely) {
  // Independent check of plane layouts: a flat colour survives every YUV layout within 2.
  RgbaImage img(5, 3);
  for (size_t i = 0; i < img.pixelCount(); ++i) {
    uint8_t* p = &img.pixels[i * 4];
    p[0] = 200, p[1] = 90, p[2] = 40, p[3] = 255;
  }
  for (PixelFormat f : {PixelFormat::kNV12, PixelFormat::kNV21, PixelFormat::kYU12,
                        PixelFormat::kYUV422P, PixelFormat::kYUV444P}) {
    for (const auto& c : kAll) {
      auto bytes = encodeRgba(img, f, c);
      ASSERT_TRUE(bytes.ok());
      Frame fr;
      fr.format = f, fr.width = 5, fr.height = 3, fr.colorimetry = c;
      ASSERT_TRUE(attachTightPlanes(fr, bytes->data(), bytes->size()).ok());
      auto back = convertToRgbaCpu(fr);
      ASSERT_TRUE(back.ok());
      for (size_t i = 0; i < back->pixels.size(); ++i)
        ASSERT_LE(std::abs(int(back->pixels[i]) - int(img.pixels[i])), 2)
            << formatName(f) << " " << i;
    }
  }
}

TEST(ImportReference, LumaPlaneIsTheRawYBytes) {
  const uint8_t yuyv[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  Frame f;
  f.format = PixelFormat::kYUYV, f.width = 2, f.height = 2;
  ASSERT_TRUE(attachTightPlanes(f, yuyv, 8).ok());
  EXPECT_EQ(extractLumaPlane(f).value(), (std::vector<uint8_t>{1, 3, 5, 7}));
  f.format = PixelFormat::kUYVY;
  EXPECT_EQ(extractLumaPlane(f).value(), (std::vector<uint8_t>{2, 4, 6, 8}));
  f.format = PixelFormat::kRGB24;
  EXPECT_FALSE(extractLumaPlane(f).ok());
}

}  // namespace
}  // namespace esf
