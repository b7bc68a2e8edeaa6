// The Bayer rows of the pixel-format table: names, fourccs, CFA order and depth against V4L2's
// documentation (typed here by hand), frame sizes worked by hand, widths a packed row cannot
// hold, and the pattern encoder's Bayer frames read back against the RGBA they came from.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "base/pixel_format.hpp"
#include "capture/frame_encode.hpp"
#include "core/import/bayer_unpack.hpp"

namespace esf {
namespace {

struct Row {
  PixelFormat format;
  const char* name;
  const char* fourcc;  // as V4L2 documents it
  const char* order;   // the 2x2 block in reading order
  int bits;
  size_t bytes_8x2;  // a tight 8x2 frame
};

// 8 bit: 1 byte a value; 10/12/16: a 16-bit word; 10P: 5 bytes per 4; 12P: 3 per 2.
const Row kRows[] = {
    {PixelFormat::kSBGGR8, "SBGGR8", "BA81", "BGGR", 8, 16},
    {PixelFormat::kSGBRG8, "SGBRG8", "GBRG", "GBRG", 8, 16},
    {PixelFormat::kSGRBG8, "SGRBG8", "GRBG", "GRBG", 8, 16},
    {PixelFormat::kSRGGB8, "SRGGB8", "RGGB", "RGGB", 8, 16},
    {PixelFormat::kSBGGR10, "SBGGR10", "BG10", "BGGR", 10, 32},
    {PixelFormat::kSGBRG10, "SGBRG10", "GB10", "GBRG", 10, 32},
    {PixelFormat::kSGRBG10, "SGRBG10", "BA10", "GRBG", 10, 32},
    {PixelFormat::kSRGGB10, "SRGGB10", "RG10", "RGGB", 10, 32},
    {PixelFormat::kSBGGR12, "SBGGR12", "BG12", "BGGR", 12, 32},
    {PixelFormat::kSGBRG12, "SGBRG12", "GB12", "GBRG", 12, 32},
    {PixelFormat::kSGRBG12, "SGRBG12", "BA12", "GRBG", 12, 32},
    {PixelFormat::kSRGGB12, "SRGGB12", "RG12", "RGGB", 12, 32},
    {PixelFormat::kSBGGR16, "SBGGR16", "BYR2", "BGGR", 16, 32},
    {PixelFormat::kSGBRG16, "SGBRG16", "GB16", "GBRG", 16, 32},
    {PixelFormat::kSGRBG16, "SGRBG16", "GR16", "GRBG", 16, 32},
    {PixelFormat::kSRGGB16, "SRGGB16", "RG16", "RGGB", 16, 32},
    {PixelFormat::kSBGGR10P, "SBGGR10P", "pBAA", "BGGR", 10, 20},
    {PixelFormat::kSGBRG10P, "SGBRG10P", "pGAA", "GBRG", 10, 20},
    {PixelFormat::kSGRBG10P, "SGRBG10P", "pgAA", "GRBG", 10, 20},
    {PixelFormat::kSRGGB10P, "SRGGB10P", "pRAA", "RGGB", 10, 20},
    {PixelFormat::kSBGGR12P, "SBGGR12P", "pBCC", "BGGR", 12, 24},
    {PixelFormat::kSGBRG12P, "SGBRG12P", "pGCC", "GBRG", 12, 24},
    {PixelFormat::kSGRBG12P, "SGRBG12P", "pgCC", "GRBG", 12, 24},
    {PixelFormat::kSRGGB12P, "SRGGB12P", "pRCC", "RGGB", 12, 24},
};

// 0 R, 1 G, 2 B of site (x, y), read from the order's letters.
int colourOf(const char* order, int x, int y) {
  const char c = order[(y & 1) * 2 + (x & 1)];
  return c == 'R' ? 0 : c == 'G' ? 1 : 2;
}

TEST(BayerFormats, TableRowsAsV4l2DocumentsThem) {
  int bayer_rows = 0;
  for (PixelFormat f : allPixelFormats()) bayer_rows += isBayer(f);
  EXPECT_EQ(bayer_rows, int(std::size(kRows)));
  for (const Row& row : kRows) {
    SCOPED_TRACE(row.name);
    const PixelFormatInfo& info = pixelFormatInfo(row.format);
    EXPECT_TRUE(isBayer(row.format));
    EXPECT_FALSE(isYuv(row.format));
    EXPECT_STREQ(info.name, row.name);
    EXPECT_EQ(fourccString(info.v4l2_fourcc), row.fourcc);
    EXPECT_EQ(info.bit_depth, row.bits);
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) EXPECT_EQ(cfaColour(info.cfa, x, y), colourOf(row.order, x, y));
    EXPECT_EQ(parsePixelFormat(row.name).value(), row.format);
    EXPECT_EQ(parsePixelFormat(row.fourcc).value(), row.format);
    EXPECT_EQ(fromV4l2Fourcc(info.v4l2_fourcc), row.format);
    EXPECT_EQ(frameSize(row.format, 8, 2).value(), row.bytes_8x2);
    // One plane, its pitch kept as the driver gives it (padding included).
    const std::vector<PlaneSlice> slices = v4l2PlaneSlices(row.format, 2, 40).value();
    ASSERT_EQ(slices.size(), 1u);
    EXPECT_EQ(slices[0].stride, 40);
    EXPECT_EQ(slices[0].size, 80u);
  }
}

TEST(BayerFormats, PackedFourccsThatDifferOnlyInCaseMustBeExact) {
  EXPECT_EQ(parsePixelFormat("pgAA").value(), PixelFormat::kSGRBG10P);
  EXPECT_EQ(parsePixelFormat("pGAA").value(), PixelFormat::kSGBRG10P);
  EXPECT_FALSE(parsePixelFormat("PGAA").ok());
  EXPECT_EQ(parsePixelFormat("srggb10p").value(), PixelFormat::kSRGGB10P);  // names: any case
  EXPECT_EQ(parsePixelFormat("rg10").value(), PixelFormat::kSRGGB10);
}

TEST(BayerFormats, PackedWidthsMustFillWholeGroups) {
  Result<size_t> ten = frameSize(PixelFormat::kSRGGB10P, 6, 2);
  ASSERT_FALSE(ten.ok());
  EXPECT_NE(ten.error().message.find("multiple of 4"), std::string::npos) << ten.error().message;
  EXPECT_FALSE(frameSize(PixelFormat::kSRGGB12P, 3, 2).ok());
  EXPECT_EQ(frameSize(PixelFormat::kSRGGB12P, 4, 3).value(), 18u);
  // Unpacked rows take any size: the CFA phase needs no even count.
  EXPECT_EQ(frameSize(PixelFormat::kSRGGB8, 7, 3).value(), 21u);
  EXPECT_EQ(frameSize(PixelFormat::kSRGGB16, 7, 3).value(), 42u);
}

// 4x1 SRGGB10P from R = 255, G = 0: R sites 1023 (high byte 0xff, low bits 11), G sites 0; the
// fifth byte holds pixel 0's low bits in bits 0-1 and pixel 2's in bits 4-5.
TEST(BayerFormats, EncodedPackedBytesByHand) {
  RgbaImage img(4, 1);
  for (int x = 0; x < 4; ++x) img.at(x, 0)[0] = 255, img.at(x, 0)[1] = 0, img.at(x, 0)[2] = 9;
  Result<std::vector<uint8_t>> bytes = encodeRgba(img, PixelFormat::kSRGGB10P, {});
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  EXPECT_EQ(*bytes, (std::vector<uint8_t>{0xff, 0x00, 0xff, 0x00, 0x33}));
  // 12P: two values in 3 bytes, pixel 0's low nibble in bits 0-3. 4095 = 0xfff.
  bytes = encodeRgba(img, PixelFormat::kSRGGB12P, {});
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, (std::vector<uint8_t>{0xff, 0x00, 0x0f, 0xff, 0x00, 0x0f}));
  // 16-bit words are little-endian: 65535 and 0.
  bytes = encodeRgba(img, PixelFormat::kSRGGB16, {});
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, (std::vector<uint8_t>{0xff, 0xff, 0, 0, 0xff, 0xff, 0, 0}));
}

// Every Bayer format: a random image encoded, then read back as sensor values; each site holds
// its own colour's channel scaled to the depth, rounded: (v * (2^bits - 1) + 127) / 255.
TEST(BayerFormats, EncodedFramesUnpackToTheirSiteChannels) {
  std::mt19937 rng(1414);
  for (const Row& row : kRows) {
    SCOPED_TRACE(row.name);
    const int w = 12, h = 5;
    RgbaImage img(w, h);
    for (auto& b : img.pixels) b = uint8_t(rng());
    Result<std::vector<uint8_t>> bytes = encodeRgba(img, row.format, {});
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    Result<std::optional<Frame>> frame = makeTightFrame(row.format, w, h, {}, *bytes, 0, 0, "test");
    ASSERT_TRUE(frame.ok()) << frame.error().message;
    Result<BayerUnpacking> unpacking = bayerUnpacking(row.format, w);
    ASSERT_TRUE(unpacking.ok()) << unpacking.error().message;
    Result<std::vector<uint16_t>> values = unpackBayerFrame(**frame, *unpacking);
    ASSERT_TRUE(values.ok()) << values.error().message;
    const uint32_t top = (1u << row.bits) - 1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        ASSERT_EQ((*values)[size_t(y) * w + x],
                  (img.at(x, y)[colourOf(row.order, x, y)] * top + 127) / 255)
            << x << "," << y;
  }
}

TEST(BayerFormats, UnpackRefusesWhatIsNotBayerOrNotInMemory) {
  Frame f;
  f.format = PixelFormat::kSRGGB8, f.width = 4, f.height = 2, f.plane_count = 1;
  f.planes[0].dmabuf_fd = 3;  // a dmabuf-only plane
  Result<BayerUnpacking> unpacking = bayerUnpacking(f.format, f.width);
  ASSERT_TRUE(unpacking.ok()) << unpacking.error().message;
  Result<std::vector<uint16_t>> v = unpackBayerFrame(f, *unpacking);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.error().message.find("CPU memory"), std::string::npos) << v.error().message;
  EXPECT_FALSE(bayerUnpacking(PixelFormat::kGREY, 4).ok());
}

// The layout is checked for the width once, before any frame: 10P packs 4 pixels a group.
TEST(BayerFormats, UnpackingRefusesAWidthItsLayoutCannotTake) {
  Result<BayerUnpacking> odd = bayerUnpacking(PixelFormat::kSRGGB10P, 6);
  ASSERT_FALSE(odd.ok());
  EXPECT_EQ(odd.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(odd.error().message.find("multiple of 4"), std::string::npos) << odd.error().message;
  Result<BayerUnpacking> fits = bayerUnpacking(PixelFormat::kSRGGB10P, 8);
  ASSERT_TRUE(fits.ok()) << fits.error().message;
  EXPECT_EQ(fits->row_bytes, 10u);
  // A frame of another width than the unpacking's is the caller's mistake, not the frame's.
  std::vector<uint8_t> bytes(20);
  Frame f;
  f.format = PixelFormat::kSRGGB10P, f.width = 4, f.height = 2, f.plane_count = 1;
  f.planes[0].data = bytes.data(), f.planes[0].size = bytes.size(), f.planes[0].stride = 10;
  Result<std::vector<uint16_t>> v = unpackBayerFrame(f, *fits);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().code, ErrorCode::kInternal);
}

}  // namespace
}  // namespace esf
