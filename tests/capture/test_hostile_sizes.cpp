// The frame limits (esframe/base/sizes.hpp) at the capture entry points: the pattern source, Y4M,
// raw and still-image headers, the pixel-format table's plane sizes and a V4L2 driver's format.
// Each hostile size is refused with one error naming the thing, before anything is allocated;
// sizes just at the limit still work. Suite HostileSize: CI also runs these under qemu-arm.
#include <gtest/gtest.h>
#include <linux/videodev2.h>

#include "base/pixel_format.hpp"
#include "capture/open_source.hpp"
#include "capture/still_image.hpp"
#include "capture/v4l2_format.hpp"
#include "tests/capture/capture_test_util.hpp"

// The library's one stb_image_write (base/stb_image_write.cpp).
#include <stb_image_write.h>

// A namespace of its own: a test executable's sources compile together in unity batches.
namespace esf::hostile_sizes_test {
namespace {

using test::bytesOf;

void appendBytes(void* ctx, void* data, int n) {
  auto* v = static_cast<std::vector<uint8_t>*>(ctx);
  v->insert(v->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + n);
}

void putBe32(std::vector<uint8_t>& b, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) b.push_back(uint8_t(v >> shift));
}

// A PNG of an IHDR chunk declaring width x height (8-bit RGBA) and an IEND chunk, no pixels:
// only its header is read before the size is refused. stb_image skips chunk CRCs; IEND's is the
// real one, which the completeness check looks for.
std::vector<uint8_t> pngHeaderOnly(uint32_t width, uint32_t height) {
  std::vector<uint8_t> b = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  putBe32(b, 13);
  for (char c : std::string("IHDR")) b.push_back(uint8_t(c));
  putBe32(b, width);
  putBe32(b, height);
  for (int v : {8, 6, 0, 0, 0})
    b.push_back(uint8_t(v));  // depth, RGBA, deflate, filter, no interlace
  putBe32(b, 0);              // CRC (not checked by stb_image)
  putBe32(b, 0);
  for (int v : std::initializer_list<int>{'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82})
    b.push_back(uint8_t(v));
  return b;
}

TEST(HostileSize, PatternSourceRefuses32768x32768) {
  SourceOptions o;
  o.width = 32768, o.height = 32768;
  auto s = openSource("pattern", o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(s.error().message, "pattern: frame size 32768x32768 is outside 1x1..16384x16384");
  o.width = 65536, o.height = 65536;
  o.format = PixelFormat::kMJPEG;
  EXPECT_FALSE(openSource("pattern", o).ok());
}

TEST(HostileSize, PatternSourceAtTheLimit16384x1) {
  SourceOptions o;
  o.width = 16384, o.height = 1;
  auto s = openSource("pattern", o);
  ASSERT_TRUE(s.ok()) << s.error().message;
  auto f = (*s)->next();
  ASSERT_TRUE(f.ok()) << f.error().message;
  ASSERT_TRUE(f->has_value());
  EXPECT_EQ((**f).width, 16384);
  EXPECT_EQ((**f).planes[0].size, size_t(65536));  // RGBA32, 4 bytes a pixel
  // The last pixel's alpha: the pattern wrote the whole row.
  EXPECT_EQ((**f).planes[0].data[65535], 255);
}

TEST(HostileSize, Y4mHeaderDeclaring65535x65535) {
  const std::string path = test::makeTempDir() + "/huge.y4m";
  test::writeFile(path, bytesOf("YUV4MPEG2 W65535 H65535 F25:1 C420jpeg\nFRAME\n"));
  auto s = openSource(path, {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(s.error().message,
            path + ": Y4M header: frame size 65535x65535 is outside 1x1..16384x16384");
}

TEST(HostileSize, Y4mHeaderAtTheLimit16384x2) {
  const std::string path = test::makeTempDir() + "/wide.y4m";
  std::vector<uint8_t> file = bytesOf("YUV4MPEG2 W16384 H2 F25:1 Cmono\nFRAME\n");
  const std::vector<uint8_t> frame = test::randomBytes(16384 * 2, 7);
  file.insert(file.end(), frame.begin(), frame.end());
  test::writeFile(path, file);
  auto s = openSource(path, {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  auto f = (*s)->next();
  ASSERT_TRUE(f.ok()) << f.error().message;
  ASSERT_TRUE(f->has_value());
  EXPECT_EQ(test::frameBytes(**f), frame);
}

TEST(HostileSize, RawWith65536x65536) {
  const std::string path = test::makeTempDir() + "/clip.raw";
  test::writeFile(path, test::randomBytes(64, 1));
  SourceOptions o;
  o.width = 65536, o.height = 65536;
  o.format = PixelFormat::kRGB24;
  auto s = openSource(path, o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(s.error().message, path + ": frame size 65536x65536 is outside 1x1..16384x16384");
  // 32768 x 32768 x 3 = 3 GiB: past a 32-bit size_t.
  o.width = 32768, o.height = 32768;
  EXPECT_FALSE(openSource(path, o).ok());
}

TEST(HostileSize, PngHeaderDeclaring20000x20000) {
  const std::string path = test::makeTempDir() + "/huge.png";
  test::writeFile(path, pngHeaderOnly(20000, 20000));
  auto s = openSource(path, {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(s.error().message,
            path + ": image header: frame size 20000x20000 is outside 1x1..16384x16384");
  // Past what stb_image's own header reader takes, and past a 32-bit int.
  Result<RgbaImage> huge = decodeStillImage(pngHeaderOnly(0xFFFFFFFF, 0xFFFFFFFF), "x.png");
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().message,
            "x.png: image header: frame size 4294967295x4294967295 is outside "
            "1x1..16384x16384");
  // One row, so that stb_image's own 2^30-byte check would let it through.
  Result<RgbaImage> wide = decodeStillImage(pngHeaderOnly(65536, 1), "wide.png");
  ASSERT_FALSE(wide.ok());
  EXPECT_EQ(wide.error().code, ErrorCode::kUnsupported);
}

TEST(HostileSize, PngAtTheLimit16384x1) {
  std::vector<uint8_t> rgb(16384 * 3);
  for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = uint8_t(i * 7);
  std::vector<uint8_t> png;
  ASSERT_TRUE(stbi_write_png_to_func(appendBytes, &png, 16384, 1, 3, rgb.data(), 16384 * 3));
  Result<RgbaImage> img = decodeStillImage(png, "wide.png");
  ASSERT_TRUE(img.ok()) << img.error().message;
  EXPECT_EQ(img->width, 16384);
  EXPECT_EQ(img->height, 1);
  EXPECT_EQ(img->at(16383, 0)[0], uint8_t(16383 * 3 * 7));
  EXPECT_EQ(img->at(16383, 0)[3], 255);
}

TEST(HostileSize, PlaneLayoutsStayWithinTheLimit) {
  EXPECT_FALSE(planeLayout(PixelFormat::kRGBA32, 65536, 65536).ok());
  EXPECT_FALSE(planeLayout(PixelFormat::kYUV444P, 16385, 16384).ok());
  EXPECT_FALSE(frameSize(PixelFormat::kRGB24, 32768, 32768).ok());
  // At the limit: 3 x 2^28 bytes for 4:4:4, 2^30 for RGBA.
  EXPECT_EQ(frameSize(PixelFormat::kYUV444P, 16384, 16384).value(), size_t(805306368));
  EXPECT_EQ(frameSize(PixelFormat::kRGBA32, 16384, 16384).value(), size_t(1073741824));
  // A hand-made layout that overflows saturates instead of wrapping.
  const PlaneLayout wraps{1 << 30, 1 << 30};
  if constexpr (sizeof(size_t) == 4)
    EXPECT_EQ(wraps.size(), std::numeric_limits<size_t>::max());
  else
    EXPECT_EQ(wraps.size(), size_t(1) << 60);
}

TEST(HostileSize, V4l2PlaneSlicesOfAHugePitch) {
  // 2^30 bytes a row, times 1080 rows: far past the buffer limit (and a 32-bit size_t).
  Result<std::vector<PlaneSlice>> huge = v4l2PlaneSlices(PixelFormat::kYU12, 1080, 1 << 30);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().code, ErrorCode::kUnsupported);
  EXPECT_FALSE(v4l2PlaneSlices(PixelFormat::kNV12, 16, -640).ok());
  Result<std::vector<PlaneSlice>> ok = v4l2PlaneSlices(PixelFormat::kYU12, 480, 640);
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  ASSERT_EQ(ok->size(), 3u);
  EXPECT_EQ((*ok)[0].offset, 0u);
  EXPECT_EQ((*ok)[0].size, 307200u);
  EXPECT_EQ((*ok)[1].offset, 307200u);
  EXPECT_EQ((*ok)[1].stride, 320);
  EXPECT_EQ((*ok)[1].size, 76800u);
  EXPECT_EQ((*ok)[2].offset, 384000u);
}

TEST(HostileSize, V4l2DriverFormatsOverTheLimit) {
  V4l2StreamFormat f;
  f.width = 640, f.height = 480, f.pixelformat = V4L2_PIX_FMT_YUYV;
  f.bytesperline[0] = 1280, f.sizeimage[0] = 614400;
  EXPECT_TRUE(checkV4l2FrameLimits(f, "/dev/video0").ok());

  V4l2StreamFormat big = f;
  big.width = 65536, big.height = 65536, big.bytesperline[0] = 131072, big.sizeimage[0] = 0;
  Status s = checkV4l2FrameLimits(big, "/dev/video0");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(s.error().message,
            "/dev/video0: the driver's format 65536x65536 YUYV: frame size 65536x65536 is "
            "outside 1x1..16384x16384");

  V4l2StreamFormat pitch = f;  // a size within the limit, a pitch that is not
  pitch.bytesperline[0] = 0x80000000u;
  EXPECT_FALSE(checkV4l2FrameLimits(pitch, "/dev/video0").ok());
  V4l2StreamFormat image = f;
  image.sizeimage[0] = 0xFFFFFFFFu;
  EXPECT_FALSE(checkV4l2FrameLimits(image, "/dev/video0").ok());

  // One buffer per plane (NV12M): plane 1 has half the rows.
  V4l2StreamFormat mplane;
  mplane.multi_planar = true, mplane.memory_planes = 2;
  mplane.width = 16384, mplane.height = 16384, mplane.pixelformat = V4L2_PIX_FMT_NV12M;
  mplane.bytesperline = {16384, 16384, 0}, mplane.sizeimage = {1u << 28, 1u << 27, 0};
  EXPECT_TRUE(checkV4l2FrameLimits(mplane, "/dev/video0").ok());
  mplane.bytesperline[1] = 1u << 20;  // 2^20 x 8192 rows = 8 GiB
  EXPECT_FALSE(checkV4l2FrameLimits(mplane, "/dev/video0").ok());
}

}  // namespace
}  // namespace esf::hostile_sizes_test
