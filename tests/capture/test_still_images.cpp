// Still images: PNG, JPEG, BMP, PGM and PPM decode; truncated and corrupt files fail with one
// line naming the file; directories, globs and lists are sequences.
#include <gtest/gtest.h>
#include <cstring>

#include <random>

#include "capture/open_source.hpp"
#include "capture/still_image.hpp"
#include "tests/capture/capture_test_util.hpp"

// The library's one stb_image_write (base/stb_image_write.cpp).
#include <stb_image_write.h>

namespace esf {
namespace {

using test::bytesOf;

void appendBytes(void* ctx, void* data, int n) {
  auto* v = static_cast<std::vector<uint8_t>*>(ctx);
  v->insert(v->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + n);
}

struct Rgb {
  int w = 7, h = 5;
  std::vector<uint8_t> px;  // RGB
  Rgb() {
    std::mt19937 rng(42);
    px.resize(size_t(w) * h * 3);
    for (auto& b : px) b = uint8_t(rng());
  }
};

std::vector<uint8_t> encode(const Rgb& img, const std::string& kind) {
  std::vector<uint8_t> out;
  if (kind == "png")
    stbi_write_png_to_func(appendBytes, &out, img.w, img.h, 3, img.px.data(), img.w * 3);
  if (kind == "bmp") stbi_write_bmp_to_func(appendBytes, &out, img.w, img.h, 3, img.px.data());
  if (kind == "jpg") stbi_write_jpg_to_func(appendBytes, &out, img.w, img.h, 3, img.px.data(), 95);
  if (kind == "ppm") {
    out = bytesOf("P6\n" + std::to_string(img.w) + " " + std::to_string(img.h) + "\n255\n");
    out.insert(out.end(), img.px.begin(), img.px.end());
  }
  if (kind == "pgm") {
    out = bytesOf("P5 " + std::to_string(img.w) + " " + std::to_string(img.h) + " 255\n");
    for (size_t i = 0; i < img.px.size(); i += 3) out.push_back(img.px[i]);
  }
  return out;
}

TEST(StillImage, LosslessFormatsDecodeExactly) {
  const Rgb img;
  for (std::string kind : {"png", "bmp", "ppm", "pgm"}) {
    auto decoded = decodeStillImage(encode(img, kind), "x." + kind);
    ASSERT_TRUE(decoded.ok()) << kind << ": " << decoded.error().message;
    ASSERT_EQ(decoded->width, img.w);
    ASSERT_EQ(decoded->height, img.h);
    for (int i = 0; i < img.w * img.h; ++i) {
      for (int c = 0; c < 3; ++c)
        ASSERT_EQ(decoded->pixels[i * 4 + c], img.px[i * 3 + (kind == "pgm" ? 0 : c)])
            << kind << " " << i;
      ASSERT_EQ(decoded->pixels[i * 4 + 3], 255);
    }
  }
}

TEST(StillImage, JpegDecodesClosely) {
  Rgb img;
  for (size_t i = 0; i < img.px.size(); ++i) img.px[i] = uint8_t(100 + i % 3 * 20);  // flat colour
  auto decoded = decodeStillImage(encode(img, "jpg"), "x.jpg");
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  for (int i = 0; i < img.w * img.h; ++i)
    for (int c = 0; c < 3; ++c) ASSERT_NEAR(decoded->pixels[i * 4 + c], img.px[i * 3 + c], 4);
}

TEST(StillImage, TruncatedAndCorruptFilesNameTheFile) {
  const Rgb img;
  for (std::string kind : {"png", "bmp", "ppm", "pgm", "jpg"}) {
    const auto full = encode(img, kind);
    for (size_t keep : {full.size() / 2, full.size() - 1, size_t(10), size_t(1)}) {
      const std::vector<uint8_t> cut(full.begin(), full.begin() + long(keep));
      auto r = decodeStillImage(cut, "shot." + kind);
      ASSERT_FALSE(r.ok()) << kind << " cut to " << keep << " bytes decoded";
      EXPECT_EQ(r.error().message.rfind("shot." + kind + ": ", 0), 0u) << r.error().message;
      EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
    }
  }
  EXPECT_FALSE(decodeStillImage(bytesOf("not an image at all"), "a.png").ok());
  EXPECT_FALSE(decodeStillImage({}, "empty.png").ok());
  auto bad = encode(img, "png");
  for (size_t i = 40; i < bad.size() - 20; ++i) bad[i] ^= 0x5a;  // corrupt the compressed data
  EXPECT_FALSE(decodeStillImage(bad, "c.png").ok());
}

// Found by fuzzing (tests/fuzz/corpus/still_image/crash-*): a DHT table of over 256 codes made
// stb_image write past its Huffman size table.
TEST(StillImage, JpegHuffmanTableOfOver256CodesIsRefused) {
  Rgb img;
  std::vector<uint8_t> jpg = encode(img, "jpg");
  size_t dht = 0;
  for (size_t i = 2; i + 21 < jpg.size() && !dht; ++i)
    if (jpg[i] == 0xFF && jpg[i + 1] == 0xC4) dht = i;
  ASSERT_NE(dht, 0u);
  ASSERT_TRUE(decodeStillImage(jpg, "ok.jpg").ok());
  for (size_t k = 0; k < 16; ++k) jpg[dht + 5 + k] = 17;  // 16 lengths x 17 codes = 272
  auto r = decodeStillImage(jpg, "dht.jpg");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "dht.jpg: corrupt JPEG (a Huffman table of over 256 codes)");
  // The fuzzer's input: 0xFF fill bytes before the start-of-image marker, as stb_image allows.
  const std::vector<uint8_t> found = {
      0xff, 0xff, 0xff, 0xff, 0xff, 0xd8, 0xff, 0xff, 0xc4, 0xc4, 0x13, 0x13, 0x13, 0x13,
      0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13,
      0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13,
      0x13, 0x13, 0xc4, 0xc4, 0xc4, 0xc4, 0xc4, 0xc4, 0xc4, 0xc4, 0xc4, 0xfb, 0x57, 0x57,
      0x57, 0x57, 0x57, 0xff, 0xff, 0xff, 0xd8, 0xff, 0xfa, 0x00, 0x40, 0x7a};
  EXPECT_FALSE(decodeStillImage(found, "found.jpg").ok());
}

// Found by fuzzing (a third run): the DHT segment declares more bytes than the file holds. stb
// reads zeros past the end and goes on parsing tables, so a last table cut short counts too.
TEST(StillImage, JpegHuffmanTableCutShortByTheEndOfFileIsRefused) {
  std::vector<uint8_t> jpg = {0xFF, 0xD8, 0xFF, 0xC4, 0x01, 0x00,  // SOI; DHT of 256 bytes
                              0x00};                               // table DC 0:
  for (int length = 1; length <= 15; ++length) jpg.push_back(0);   //   no codes of 1..15 bits,
  jpg.push_back(6);                                                //   6 of 16 bits; values:
  for (uint8_t v : {0xFF, 0xDA, 0x00, 0xFF, 0xD9, 0x00}) jpg.push_back(v);  // (SOS, EOI bytes)
  jpg.insert(jpg.end(), {0x00, 0xFF, 0xFF});  // table DC 0 again, cut short: 255 + 255 codes
  auto r = decodeStillImage(jpg, "tail.jpg");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "tail.jpg: corrupt JPEG (a Huffman table of over 256 codes)");
  // The same file whose last table declares 255 codes only is no longer refused for its tables.
  jpg.back() = 0x00;
  auto fine = decodeStillImage(jpg, "tail.jpg");
  EXPECT_TRUE(fine.ok() || fine.error().message.find("Huffman") == std::string::npos)
      << fine.error().message;
}

// A real photo (bench's) carries FF C4 inside its EXIF block: no DHT, stb skips the block by its
// length. Checking every FF C4 in the file refused it; the check walks the segments as stb does.
TEST(StillImage, FfC4InsideAnAppSegmentIsNoHuffmanTable) {
  Rgb img;
  std::vector<uint8_t> jpg = encode(img, "jpg");
  std::vector<uint8_t> app1 = {0xFF, 0xE1, 0x00, 0x18, 0xFF, 0xC4, 0x00, 0x08, 0x00};
  app1.resize(2 + 0x18, 0x20);  // 16 "code counts" of 32: 512 codes, if it were a table
  jpg.insert(jpg.begin() + 2, app1.begin(), app1.end());
  auto r = decodeStillImage(jpg, "exif.jpg");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->pixels, decodeStillImage(encode(img, "jpg"), "plain.jpg")->pixels);
}

// Found by fuzzing: a PNG chunk declaring 1.2 GB in a 130-byte file made stb_image allocate
// 2 GiB for it before finding the file short.
TEST(StillImage, PngChunkLongerThanTheFileIsRefused) {
  Rgb img;
  std::vector<uint8_t> png = encode(img, "png");
  ASSERT_TRUE(decodeStillImage(png, "ok.png").ok());
  size_t idat = 0;
  for (size_t i = 8; i + 4 <= png.size() && !idat; ++i)
    if (std::memcmp(&png[i], "IDAT", 4) == 0) idat = i - 4;
  ASSERT_NE(idat, 0u);
  // One byte more than the rest of the file holds, and the fuzzer's 1.2 GB.
  for (const size_t declared : {png.size() - idat - 12 + 1, size_t(0x48000010)}) {
    std::vector<uint8_t> bad = png;
    for (int k = 0; k < 4; ++k) bad[idat + size_t(k)] = uint8_t(declared >> (24 - 8 * k));
    auto r = decodeStillImage(bad, "long.png");
    ASSERT_FALSE(r.ok()) << declared;
    EXPECT_EQ(r.error().message, "long.png: corrupt PNG (a chunk longer than the file)");
  }
}

// Found by fuzzing: stb_image took a BMP compression it does not know as none, so 59 bytes
// declaring 15104x14591 pixels made it allocate and fill 880 MB.
TEST(StillImage, BmpOfACompressionStbCannotDecodeIsRefused) {
  Rgb img;
  std::vector<uint8_t> bmp = encode(img, "bmp");
  ASSERT_TRUE(decodeStillImage(bmp, "ok.bmp").ok());
  for (const uint32_t compression : {1u, 2u, 4u, 0xDBFFFFFFu}) {
    std::vector<uint8_t> bad = bmp;
    for (int k = 0; k < 4; ++k) bad[30 + size_t(k)] = uint8_t(compression >> (8 * k));
    auto r = decodeStillImage(bad, "odd.bmp");
    ASSERT_FALSE(r.ok()) << compression;
    EXPECT_EQ(r.error().message, "odd.bmp: truncated or corrupt BMP");
  }
  const std::vector<uint8_t> found = {
      0x42, 0x4d, 0x3e, 0x02, 0x63, 0x00, 0x00, 0x00, 0x00, 0x00, 0x36, 0x00, 0x00, 0x00, 0x28,
      0x00, 0x00, 0x00, 0x00, 0x3b, 0x00, 0x00, 0xff, 0x38, 0x00, 0x00, 0x01, 0x00, 0x18, 0x00,
      0xff, 0xff, 0xff, 0xdb, 0x57, 0x57, 0xff, 0x00, 0x00, 0x12, 0x2f, 0xfc, 0xff, 0xda, 0x00,
      0x00, 0x00, 0x26, 0xff, 0x40, 0x79, 0x79, 0x69, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00};
  EXPECT_FALSE(decodeStillImage(found, "found.bmp").ok());
}

// Found by fuzzing: a PGM header number past int made stb_image's parser overflow (UBSan).
TEST(StillImage, PnmHeaderNumberPastIntIsRefused) {
  const std::string pgm = "P5 2 2222222222222222222222 255\n" + std::string(64, 'x');
  auto r = decodeStillImage(bytesOf(pgm), "big.pgm");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "big.pgm: truncated or unsupported PGM/PPM");
  // The fuzzer's form: the long number hidden behind a comment that ends at a CR.
  // Read up to LF only, the header would be "2 2 255" and the file would reach stb.
  const std::string cr = "P5 2 # c\r2222222222222222222222 255\n2 255\n" + std::string(64, 'x');
  EXPECT_FALSE(decodeStillImage(bytesOf(cr), "cr.pgm").ok());
}

TEST(StillImage, SequencesFromDirectoryGlobAndList) {
  const Rgb img;
  const std::string dir = test::makeTempDir();
  test::writeFile(dir + "/b.png", encode(img, "png"));
  test::writeFile(dir + "/a.ppm", encode(img, "ppm"));
  test::writeFile(dir + "/notes.txt", bytesOf("ignored"));
  for (const std::string& spec : {dir, dir + "/*.p[pn][mg]", dir + "/a.ppm," + dir + "/b.png"}) {
    auto s = openSource(spec, {});
    ASSERT_TRUE(s.ok()) << spec << ": " << s.error().message;
    std::vector<std::string> names;
    for (;;) {
      auto f = (*s)->next();
      ASSERT_TRUE(f.ok()) << f.error().message;
      if (!f->has_value()) break;
      names.push_back((**f).source);
      EXPECT_EQ((**f).sequence, names.size() - 1);
    }
    EXPECT_EQ(names, (std::vector<std::string>{dir + "/a.ppm", dir + "/b.png"})) << spec;
  }
  EXPECT_FALSE(openSource(dir + "/*.gif", {}).ok());
}

TEST(StillImage, CorruptFileInASequenceStopsItWithItsName) {
  const Rgb img;
  const std::string dir = test::makeTempDir();
  test::writeFile(dir + "/1.png", encode(img, "png"));
  auto cut = encode(img, "png");
  cut.resize(cut.size() / 2);
  test::writeFile(dir + "/2.png", cut);
  Rgb other;
  other.w = 3;
  other.px.resize(3 * 5 * 3);
  test::writeFile(dir + "/3.png", encode(other, "png"));
  auto s = openSource(dir + "/1.png," + dir + "/2.png", {});
  ASSERT_TRUE(s.ok());
  ASSERT_TRUE((*s)->next().ok());
  auto bad = (*s)->next();
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("2.png"), std::string::npos) << bad.error().message;
  auto mixed = openSource(dir + "/1.png," + dir + "/3.png", {});
  ASSERT_TRUE(mixed.ok());
  ASSERT_TRUE((*mixed)->next().ok());
  auto size_err = (*mixed)->next();
  ASSERT_FALSE(size_err.ok());
  EXPECT_NE(size_err.error().message.find("3.png: image is 3x5"), std::string::npos)
      << size_err.error().message;
}

}  // namespace
}  // namespace esf
