// The CPU reference against independent derivations: the YUV matrix in floating point, the
// range end points, and byte orders written out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "base/pixel_format.hpp"
#include "capture/frame_encode.hpp"
#include "core/import/import_reference.hpp"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb_image.h>
#pragma GCC diagnostic pop

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
  // The encoders against the CPU reference (whose layouts test_pixel_format_layouts checks by
  // hand): colours flat within each 2x2 block but different between blocks survive every Y'CbCr
  // layout within 2, so chroma written to the wrong block or plane shows.
  const PixelFormat formats[] = {PixelFormat::kYUYV,   PixelFormat::kUYVY, PixelFormat::kNV12,
                                 PixelFormat::kNV21,   PixelFormat::kYU12, PixelFormat::kYUV422P,
                                 PixelFormat::kYUV444P};
  for (PixelFormat f : formats) {
    const int w = allowsOddWidth(f) ? 5 : 6, h = 3;
    RgbaImage img(w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const int block = (y / 2) * 3 + x / 2;
        uint8_t* p = img.at(x, y);
        p[0] = uint8_t(200 - 37 * block), p[1] = uint8_t(90 + 29 * block % 120);
        p[2] = uint8_t(40 + 41 * block % 180), p[3] = 255;
      }
    for (const auto& c : kAll) {
      auto bytes = encodeRgba(img, f, c);
      ASSERT_TRUE(bytes.ok());
      Frame fr;
      fr.format = f, fr.width = w, fr.height = h, fr.colorimetry = c;
      ASSERT_TRUE(attachTightPlanes(fr, bytes->data(), bytes->size()).ok());
      auto back = convertToRgbaCpu(fr);
      ASSERT_TRUE(back.ok());
      for (size_t i = 0; i < back->pixels.size(); ++i)
        ASSERT_LE(std::abs(int(back->pixels[i]) - int(img.pixels[i])), 2)
            << formatName(f) << " " << colorimetryName(c) << " byte " << i;
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

TEST(ImportReference, MjpegDecodeAgreesWithStbImage) {
  // The CPU reference decodes MJPEG with libv4lconvert; stb_image is an independent decoder of
  // the same bytes. Their IDCTs, colour conversions and 4:2:0 chroma upsampling round
  // differently, so they agree within a few levels, not exactly.
  const int w = 37, h = 23;  // odd: partial MCUs on both edges
  RgbaImage src(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t* p = src.at(x, y);
      p[0] = uint8_t(x * 255 / (w - 1)), p[1] = uint8_t(y * 255 / (h - 1));
      p[2] = uint8_t((x + y) * 255 / (w + h - 2)), p[3] = 255;
    }
  auto jpeg = encodeRgba(src, PixelFormat::kMJPEG, {});
  ASSERT_TRUE(jpeg.ok());
  Frame f;
  f.format = PixelFormat::kMJPEG, f.width = w, f.height = h, f.source = "test.mjpeg";
  ASSERT_TRUE(attachTightPlanes(f, jpeg->data(), jpeg->size()).ok());
  auto ours = convertToRgbaCpu(f);
  ASSERT_TRUE(ours.ok()) << ours.error().message;
  int sw = 0, sh = 0, channels = 0;
  std::unique_ptr<uint8_t, void (*)(void*)> theirs(
      stbi_load_from_memory(jpeg->data(), int(jpeg->size()), &sw, &sh, &channels, 3),
      stbi_image_free);
  ASSERT_TRUE(theirs) << stbi_failure_reason();
  ASSERT_EQ(sw, w);
  ASSERT_EQ(sh, h);
  int worst = 0;
  long sum = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        const int d = std::abs(int(ours->at(x, y)[c]) - int(theirs.get()[(y * w + x) * 3 + c]));
        worst = std::max(worst, d), sum += d;
      }
  EXPECT_LE(worst, 4) << "a pixel decoded differently";            // measured: 2
  EXPECT_LT(double(sum) / (w * h * 3), 0.5) << "mean difference";  // measured: 0.13
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) ASSERT_EQ(ours->at(x, y)[3], 255);
}

}  // namespace
}  // namespace esf
