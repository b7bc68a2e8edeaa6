// esframe/base/sizes.hpp: the checked size arithmetic and the frame limits. Expected values are
// written out by hand (powers of two), never computed with the helpers under test. HostileSize*
// tests also run under qemu-arm, where size_t is 32 bits.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

#include "esframe/base/sizes.hpp"
#include "esframe/rgba_image.hpp"
#include "esframe/text_parse.hpp"

namespace esf {
namespace {

constexpr uint64_t k2To32 = 4294967296ull;
constexpr uint64_t k2To62 = 4611686018427387904ull;
constexpr size_t kSizeMax = std::numeric_limits<size_t>::max();

TEST(HostileSize, ProductsThatFitAreExact) {
  EXPECT_EQ(checkedProduct(640, 480, 4), std::optional<uint64_t>(1228800));
  EXPECT_EQ(checkedProduct(65536, 65536), std::optional<uint64_t>(k2To32));
  EXPECT_EQ(checkedProduct(uint64_t(1) << 31, uint64_t(1) << 31), std::optional<uint64_t>(k2To62));
  EXPECT_EQ(checkedProduct(0, 123456789), std::optional<uint64_t>(0));
}

TEST(HostileSize, ProductsThatOverflow64BitsAreRefused) {
  EXPECT_EQ(checkedProduct(uint64_t(1) << 32, uint64_t(1) << 32), std::nullopt);
  EXPECT_EQ(checkedProduct(k2To62, 4), std::nullopt);
  EXPECT_EQ(checkedProduct(std::numeric_limits<int>::max(), std::numeric_limits<int>::max(),
                           std::numeric_limits<int>::max()),
            std::nullopt);
  EXPECT_EQ(checkedSum(std::numeric_limits<uint64_t>::max(), 1), std::nullopt);
}

TEST(HostileSize, NegativeFactorsAreRefused) {
  EXPECT_EQ(checkedProduct(-1, 4), std::nullopt);
  EXPECT_EQ(checkedProduct(4, int64_t(-2)), std::nullopt);
  EXPECT_FALSE(checkedSize("plane", -1, 4).ok());
}

// 65536 x 65536 x 4 is 2^34: on a 32-bit size_t an unchecked product wraps to 0.
TEST(HostileSize, ProductsOver32BitsFollowThisProcessesSizeT) {
  Result<size_t> s = checkedSize("image", 65536, 65536, 4);
  if constexpr (sizeof(size_t) == 4) {
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(s.error().message, "image: 65536 x 65536 x 4 bytes do not fit in memory");
    EXPECT_EQ(saturatingSize(65536, 65536, 4), kSizeMax);
  } else {
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(*s, size_t(4) * k2To32);
    EXPECT_EQ(saturatingSize(65536, 65536, 4), size_t(4) * k2To32);
  }
  Result<size_t> huge = checkedSize("image", uint64_t(1) << 40, uint64_t(1) << 40);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().message,
            "image: 1099511627776 x 1099511627776 bytes do not fit in memory");
  EXPECT_EQ(saturatingSize(uint64_t(1) << 40, uint64_t(1) << 40), kSizeMax);
}

TEST(HostileSize, FrameBuffersStopAtOneGiB) {
  // The RGBA image of a 16384x16384 frame is exactly the limit.
  Result<size_t> at = frameBufferSize("RGBA image", 16384, 16384, 4);
  ASSERT_TRUE(at.ok()) << at.error().message;
  EXPECT_EQ(*at, size_t(1073741824));
  Result<size_t> over = frameBufferSize("RGBA image", 16384, 16385, 4);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().message,
            "RGBA image: 16384 x 16385 x 4 bytes is over the 1024 MiB frame buffer limit");
  EXPECT_FALSE(frameBufferSize("plane", uint64_t(1) << 32, uint64_t(1) << 32).ok());
}

TEST(HostileSize, FrameSidesStopAt16384) {
  EXPECT_TRUE(checkFrameSize("pattern", 16384, 1).ok());
  EXPECT_TRUE(checkFrameSize("pattern", 1, 16384).ok());
  EXPECT_TRUE(checkFrameSize("pattern", 16384, 16384).ok());
  for (auto [w, h] : {std::pair<int64_t, int64_t>{16385, 1},
                      {1, 16385},
                      {0, 5},
                      {5, 0},
                      {-1, 5},
                      {65536, 65536},
                      {int64_t(1) << 40, 1}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
    Status s = checkFrameSize("pattern", w, h);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
    EXPECT_EQ(s.error().message, "pattern: frame size " + std::to_string(w) + "x" +
                                     std::to_string(h) + " is outside 1x1..16384x16384");
  }
  Status header = checkFrameSize("clip.y4m", 65535, 65535, ErrorCode::kUnsupported);
  ASSERT_FALSE(header.ok());
  EXPECT_EQ(header.error().code, ErrorCode::kUnsupported);
}

TEST(HostileSize, RgbaImageCreateRefusesBeforeAllocating) {
  Result<RgbaImage> big = RgbaImage::create(32768, 32768, "pattern");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().message, "pattern: frame size 32768x32768 is outside 1x1..16384x16384");
  Result<RgbaImage> at = RgbaImage::create(16384, 1, "pattern");
  ASSERT_TRUE(at.ok()) << at.error().message;
  EXPECT_EQ(at->pixels.size(), size_t(65536));
}

// On a 32-bit size_t, 32768 x 32768 x 4 = 2^32 wrapped to an empty buffer that at() then
// overran; the saturated size makes std::vector refuse instead.
TEST(HostileSize, RgbaImageConstructorNeverWraps) {
  if constexpr (sizeof(size_t) != 4) GTEST_SKIP() << "2^32 fits this size_t: nothing wraps";
  EXPECT_THROW(RgbaImage(32768, 32768), std::length_error);
}

TEST(HostileSize, ParseSizeDefaultsToTheFrameLimit) {
  EXPECT_EQ(parseSize("16384x1", "size").value(), (ParsedSize{16384, 1}));
  Result<ParsedSize> over = parseSize("65536x65536", "--size");
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().message,
            "--size '65536x65536': expected WxH (e.g. 640x480), each 1..16384");
  EXPECT_FALSE(parseSize("16385x1", "size").ok());
  EXPECT_FALSE(parseSize("32768x32768", "size").ok());
}

}  // namespace
}  // namespace esf
