// The pixel-format table and everything it drives (the CPU reference, the encoders) against
// layouts written out by hand from the V4L2 pixel-format documentation: which byte of a tiny,
// odd-sized frame each pixel's components come from. Nothing here asks the table how big a plane
// is or where a component sits; the expected numbers are typed in.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "base/pixel_format.hpp"
#include "capture/frame_encode.hpp"
#include "core/import/import_reference.hpp"

namespace esf {
namespace {

// ---- the table ----------------------------------------------------------------------------

TEST(PixelFormatTable, EveryEnumeratorHasItsOwnRow) {
  std::set<std::string> names;
  std::set<uint32_t> fourccs;
  for (int e = 0; e <= int(PixelFormat::kSRGGB12P); ++e) {  // the last enumerator
    const auto f = PixelFormat(e);
    const PixelFormatInfo& info = pixelFormatInfo(f);
    EXPECT_EQ(info.format, f) << "enumerator " << e << " has no row";
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_TRUE(fourccs.insert(info.v4l2_fourcc).second) << info.name;
    EXPECT_EQ(parsePixelFormat(info.name).value(), f);
    EXPECT_EQ(fromV4l2Fourcc(info.v4l2_fourcc).value(), f);
  }
  EXPECT_EQ(allPixelFormats().size(), names.size());
}

TEST(PixelFormatTable, RowsAreSelfConsistent) {
  for (PixelFormat f : allPixelFormats()) {
    const PixelFormatInfo& i = pixelFormatInfo(f);
    SCOPED_TRACE(i.name);
    if (i.colour == ColourFamily::kBayer) {  // test_bayer_formats.cpp checks these rows
      EXPECT_TRUE(isBayer(f));
      continue;
    }
    EXPECT_EQ(i.bit_depth, 8);
    if (i.packing == Packing::kCompressed) {
      EXPECT_EQ(i.plane_count, 0);
      continue;
    }
    ASSERT_GE(i.plane_count, 1);
    ASSERT_LE(i.plane_count, 3);
    EXPECT_EQ(i.plane_count, i.packing == Packing::kPacked       ? 1
                             : i.packing == Packing::kSemiPlanar ? 2
                                                                 : 3);
    // Each byte of a sample belongs to at most one component; every plane carries one.
    std::vector<std::vector<int>> claimed(size_t(i.plane_count));
    for (int p = 0; p < i.plane_count; ++p) {
      ASSERT_GT(i.planes[size_t(p)].bytes_per_sample, 0);
      claimed[size_t(p)].assign(size_t(i.planes[size_t(p)].bytes_per_sample) * 2, 0);
    }
    auto claim = [&](const ComponentLocation& c, const char* what) {
      if (!c.present()) return;
      ASSERT_LT(c.plane, i.plane_count) << what;
      ASSERT_LT(c.byte_offset, i.planes[size_t(c.plane)].bytes_per_sample) << what;
      EXPECT_EQ(c.subsampled, std::string(what) == "cb" || std::string(what) == "cr") << what;
      const size_t byte =
          size_t(c.block_sample * i.planes[size_t(c.plane)].bytes_per_sample + c.byte_offset);
      EXPECT_EQ(claimed[size_t(c.plane)][byte]++, 0) << what << " shares a byte";
    };
    claim(i.y, "y"), claim(i.cb, "cb"), claim(i.cr, "cr");
    claim(i.r, "r"), claim(i.g, "g"), claim(i.b, "b"), claim(i.a, "a");
    for (int p = 0; p < i.plane_count; ++p) {
      int n = 0;
      for (int c : claimed[size_t(p)]) n += c;
      EXPECT_GT(n, 0) << "plane " << p << " carries nothing";
    }
    switch (i.colour) {
      case ColourFamily::kRgb:
        EXPECT_TRUE(i.r.present() && i.g.present() && i.b.present() && !i.y.present());
        break;
      case ColourFamily::kYuv:
        EXPECT_TRUE(i.y.present() && i.cb.present() && i.cr.present() && !i.r.present());
        EXPECT_EQ(i.cb.plane == i.cr.plane, i.packing != Packing::kPlanar);
        break;
      case ColourFamily::kGrey:
        EXPECT_TRUE(i.y.present() && !i.cb.present() && !i.r.present());
        break;
      case ColourFamily::kBayer:
        break;  // skipped above
    }
    EXPECT_EQ(isYuv(f), i.colour == ColourFamily::kYuv);
  }
}

// Plane byte counts worked out by hand from the V4L2 docs.
TEST(PixelFormatTable, PlaneSizesAtOddSizes) {
  struct Case {
    PixelFormat f;
    int w, h;
    std::vector<std::pair<int, int>> planes;  // bytes per row, rows
    size_t total;
  } cases[] = {
      {PixelFormat::kNV12, 3, 3, {{3, 3}, {4, 2}}, 9 + 2 * 2 * 2},
      {PixelFormat::kNV21, 5, 1, {{5, 1}, {6, 1}}, 5 + 6},
      {PixelFormat::kYU12, 3, 3, {{3, 3}, {2, 2}, {2, 2}}, 9 + 4 + 4},
      {PixelFormat::kYU12, 5, 4, {{5, 4}, {3, 2}, {3, 2}}, 20 + 6 + 6},
      {PixelFormat::kYUV422P, 3, 3, {{3, 3}, {2, 3}, {2, 3}}, 9 + 6 + 6},
      {PixelFormat::kYUV444P, 3, 3, {{3, 3}, {3, 3}, {3, 3}}, 27},
      {PixelFormat::kYUYV, 4, 3, {{8, 3}}, 24},
      {PixelFormat::kUYVY, 2, 5, {{4, 5}}, 20},
      {PixelFormat::kRGB24, 3, 3, {{9, 3}}, 27},
      {PixelFormat::kBGR24, 1, 7, {{3, 7}}, 21},
      {PixelFormat::kXRGB32, 3, 3, {{12, 3}}, 36},
      {PixelFormat::kRGBA32, 7, 1, {{28, 1}}, 28},
      {PixelFormat::kGREY, 3, 3, {{3, 3}}, 9},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(formatName(c.f)) + " " + std::to_string(c.w) + "x" +
                 std::to_string(c.h));
    auto layout = planeLayout(c.f, c.w, c.h);
    ASSERT_TRUE(layout.ok()) << layout.error().message;
    ASSERT_EQ(layout->size(), c.planes.size());
    for (size_t p = 0; p < c.planes.size(); ++p) {
      EXPECT_EQ((*layout)[p].bytes_per_row, c.planes[p].first) << "plane " << p;
      EXPECT_EQ((*layout)[p].rows, c.planes[p].second) << "plane " << p;
    }
    EXPECT_EQ(frameSize(c.f, c.w, c.h).value(), c.total);
  }
  EXPECT_FALSE(planeLayout(PixelFormat::kYUYV, 3, 2).ok());  // two pixels per 4 bytes
  EXPECT_FALSE(planeLayout(PixelFormat::kUYVY, 5, 2).ok());
  EXPECT_TRUE(planeLayout(PixelFormat::kMJPEG, 3, 3)->empty());
}

// V4L2 single-planar buffers: planes back to back, chroma pitch from luma pitch (V4L2 docs:
// "the Cb and Cr planes ... bytesperline / 2" for YU12 and 422P; NV12's CbCr at bytesperline).
TEST(PixelFormatTable, V4l2PlaneOffsetsAndPitches) {
  struct Case {
    PixelFormat f;
    int height, bytes_per_line;
    std::vector<PlaneSlice> want;  // offset, stride, size
  } cases[] = {
      {PixelFormat::kYU12,
       480,
       640,
       {{0, 640, 307200}, {307200, 320, 76800}, {384000, 320, 76800}}},
      {PixelFormat::kYU12,
       480,
       704,
       {{0, 704, 337920}, {337920, 352, 84480}, {422400, 352, 84480}}},
      {PixelFormat::kNV12, 3, 656, {{0, 656, 1968}, {1968, 656, 1312}}},
      {PixelFormat::kNV21, 4, 64, {{0, 64, 256}, {256, 64, 128}}},
      {PixelFormat::kYUV422P,
       480,
       640,
       {{0, 640, 307200}, {307200, 320, 153600}, {460800, 320, 153600}}},
      {PixelFormat::kYUV444P, 2, 640, {{0, 640, 1280}, {1280, 640, 1280}, {2560, 640, 1280}}},
      {PixelFormat::kYUYV, 480, 1280, {{0, 1280, 614400}}},
      {PixelFormat::kRGB24, 2, 1920, {{0, 1920, 3840}}},
      {PixelFormat::kMJPEG, 480, 0, {}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(formatName(c.f)) + " bytesperline " +
                 std::to_string(c.bytes_per_line));
    const auto got = v4l2PlaneSlices(c.f, c.height, c.bytes_per_line).value();
    ASSERT_EQ(got.size(), c.want.size());
    for (size_t p = 0; p < got.size(); ++p) {
      EXPECT_EQ(got[p].offset, c.want[p].offset) << "plane " << p;
      EXPECT_EQ(got[p].stride, c.want[p].stride) << "plane " << p;
      EXPECT_EQ(got[p].size, c.want[p].size) << "plane " << p;
    }
  }
}

// ---- where each pixel's components come from -------------------------------------------------

// A tiny frame and, per pixel in row-major order, the byte offsets (into the tight frame) of its
// components, typed in from the V4L2 layouts. RGB formats list R, G, B, A (-1: opaque).
struct Layout {
  PixelFormat f;
  int w, h;
  size_t bytes;
  std::vector<int> first, second, third, fourth;  // Y Cb Cr, or R G B A
};

// Packed RGB: pixel i starts at i * bpp; r, g, b, a are byte positions within it (V4L2 docs).
Layout packedRgb(PixelFormat f, int bpp, int r, int g, int b, int a) {
  Layout l{f, 3, 3, size_t(9 * bpp), {}, {}, {}, {}};
  for (int i = 0; i < 9; ++i) {
    l.first.push_back(i * bpp + r), l.second.push_back(i * bpp + g);
    l.third.push_back(i * bpp + b), l.fourth.push_back(a < 0 ? -1 : i * bpp + a);
  }
  return l;
}

// Y'CbCr: the byte positions of each pixel's Y, Cb and Cr.
Layout yuv(PixelFormat f, int w, int h, size_t bytes, std::vector<int> y, std::vector<int> cb,
           std::vector<int> cr) {
  return {f, w, h, bytes, std::move(y), std::move(cb), std::move(cr), {}};
}

std::vector<Layout> handWrittenLayouts() {
  const std::vector<int> y9 = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  return {
      // 4:2:0, 3x3: chroma blocks 2x2, the right column and bottom row are partial blocks.
      yuv(PixelFormat::kYU12, 3, 3, 17, y9, {9, 9, 10, 9, 9, 10, 11, 11, 12},
          {13, 13, 14, 13, 13, 14, 15, 15, 16}),
      yuv(PixelFormat::kNV12, 3, 3, 17, y9, {9, 9, 11, 9, 9, 11, 13, 13, 15},
          {10, 10, 12, 10, 10, 12, 14, 14, 16}),
      yuv(PixelFormat::kNV21, 3, 3, 17, y9, {10, 10, 12, 10, 10, 12, 14, 14, 16},
          {9, 9, 11, 9, 9, 11, 13, 13, 15}),
      yuv(PixelFormat::kYUV422P, 3, 3, 21, y9, {9, 9, 10, 11, 11, 12, 13, 13, 14},
          {15, 15, 16, 17, 17, 18, 19, 19, 20}),
      yuv(PixelFormat::kYUV444P, 3, 3, 27, y9, {9, 10, 11, 12, 13, 14, 15, 16, 17},
          {18, 19, 20, 21, 22, 23, 24, 25, 26}),
      // 4x3, 8 bytes a row: Y0 Cb Y1 Cr Y2 Cb Y3 Cr
      yuv(PixelFormat::kYUYV, 4, 3, 24, {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22},
          {1, 1, 5, 5, 9, 9, 13, 13, 17, 17, 21, 21}, {3, 3, 7, 7, 11, 11, 15, 15, 19, 19, 23, 23}),
      // Cb Y0 Cr Y1 Cb Y2 Cr Y3
      yuv(PixelFormat::kUYVY, 4, 3, 24, {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23},
          {0, 0, 4, 4, 8, 8, 12, 12, 16, 16, 20, 20}, {2, 2, 6, 6, 10, 10, 14, 14, 18, 18, 22, 22}),
      {PixelFormat::kGREY, 3, 3, 9, y9, {}, {}, {}},
      packedRgb(PixelFormat::kRGBA32, 4, 0, 1, 2, 3),
      packedRgb(PixelFormat::kRGB24, 3, 0, 1, 2, -1),
      packedRgb(PixelFormat::kBGR24, 3, 2, 1, 0, -1),
      packedRgb(PixelFormat::kXRGB32, 4, 1, 2, 3, -1),  // X R G B
      packedRgb(PixelFormat::kARGB32, 4, 1, 2, 3, 0),   // A R G B
      packedRgb(PixelFormat::kXBGR32, 4, 2, 1, 0, -1),  // B G R X
      packedRgb(PixelFormat::kABGR32, 4, 2, 1, 0, 3),   // B G R A
  };
}

TEST(PixelFormatLayouts, EveryUncompressedFormatHasAHandWrittenCase) {
  std::set<PixelFormat> covered;
  for (const auto& l : handWrittenLayouts()) covered.insert(l.f);
  for (PixelFormat f : allPixelFormats())
    if (!isCompressed(f) && !isBayer(f)) {  // Bayer: test_bayer_formats.cpp
      EXPECT_TRUE(covered.count(f)) << formatName(f);
    }
}

// Copies a tight frame into planes whose rows are `pad` bytes longer than needed.
struct PaddedFrame {
  std::vector<std::vector<uint8_t>> planes;
  Frame frame;
};
PaddedFrame padRows(const Frame& tight, int pad) {
  PaddedFrame out;
  out.frame = tight;
  auto layout = planeLayout(tight.format, tight.width, tight.height).value();
  out.planes.resize(layout.size());
  for (size_t p = 0; p < layout.size(); ++p) {
    const int stride = layout[p].bytes_per_row + pad;
    out.planes[p].assign(size_t(stride) * layout[p].rows, 0xEE);
    for (int r = 0; r < layout[p].rows; ++r)
      std::copy_n(tight.planes[p].data + size_t(r) * tight.planes[p].stride,
                  layout[p].bytes_per_row, &out.planes[p][size_t(r) * stride]);
    out.frame.planes[p] = FramePlane{out.planes[p].data(), out.planes[p].size(), stride};
  }
  return out;
}

TEST(PixelFormatLayouts, CpuReferenceReadsTheDocumentedBytes) {
  // Byte i of the frame is 100 + i: distinct, and mid-range so no component clamps.
  const Colorimetry full601{YcbcrEncoding::kBt601, true};
  const YuvCoefficients k = yuvCoefficients(full601);
  for (const Layout& l : handWrittenLayouts()) {
    SCOPED_TRACE(formatName(l.f));
    std::vector<uint8_t> bytes(l.bytes);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = uint8_t(100 + i);
    Frame tight;
    tight.format = l.f, tight.width = l.w, tight.height = l.h, tight.colorimetry = full601;
    ASSERT_TRUE(attachTightPlanes(tight, bytes.data(), bytes.size()).ok());
    const PaddedFrame padded = padRows(tight, 5);
    for (const Frame* f : {static_cast<const Frame*>(&tight), &padded.frame}) {
      auto img = convertToRgbaCpu(*f);
      ASSERT_TRUE(img.ok()) << img.error().message;
      const bool yuv = isYuv(l.f);
      for (int i = 0; i < l.w * l.h; ++i) {
        const uint8_t* got = img->at(i % l.w, i / l.w);
        uint8_t want[4] = {0, 0, 0, 255};
        if (yuv) {
          yuvToRgb(k, bytes[size_t(l.first[size_t(i)])], bytes[size_t(l.second[size_t(i)])],
                   bytes[size_t(l.third[size_t(i)])], want);
        } else if (l.second.empty()) {  // GREY
          want[0] = want[1] = want[2] = bytes[size_t(l.first[size_t(i)])];
        } else {
          want[0] = bytes[size_t(l.first[size_t(i)])];
          want[1] = bytes[size_t(l.second[size_t(i)])];
          want[2] = bytes[size_t(l.third[size_t(i)])];
          if (l.fourth[size_t(i)] >= 0) want[3] = bytes[size_t(l.fourth[size_t(i)])];
        }
        for (int c = 0; c < 4; ++c)
          ASSERT_EQ(int(got[c]), int(want[c]))
              << "pixel " << i << " channel " << c << (f == &tight ? " tight" : " padded");
      }
      if (yuv || l.second.empty()) {  // the luma plane is exactly the documented Y bytes
        auto luma = extractLumaPlane(*f);
        ASSERT_TRUE(luma.ok());
        for (int i = 0; i < l.w * l.h; ++i)
          ASSERT_EQ((*luma)[size_t(i)], bytes[size_t(l.first[size_t(i)])]) << "pixel " << i;
      }
    }
  }
}

TEST(PixelFormatLayouts, EncoderWritesTheDocumentedBytes) {
  // Grey pixels of distinct levels: in full range their Y is the level itself and their chroma
  // 128, whatever the matrix rounding; RGB pixels carry distinct R, G, B, A.
  const Colorimetry full601{YcbcrEncoding::kBt601, true};
  for (const Layout& l : handWrittenLayouts()) {
    SCOPED_TRACE(formatName(l.f));
    RgbaImage img(l.w, l.h);
    for (int i = 0; i < l.w * l.h; ++i) {
      uint8_t* p = img.at(i % l.w, i / l.w);
      if (isYuv(l.f) || l.second.empty())
        p[0] = p[1] = p[2] = uint8_t(20 + 17 * i), p[3] = 255;
      else
        p[0] = uint8_t(10 + i), p[1] = uint8_t(60 + i), p[2] = uint8_t(110 + i),
        p[3] = uint8_t(160 + i);
    }
    auto bytes = encodeRgba(img, l.f, full601);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    ASSERT_EQ(bytes->size(), l.bytes);
    std::vector<int> written(l.bytes, 0);
    for (int i = 0; i < l.w * l.h; ++i) {
      const uint8_t* p = img.at(i % l.w, i / l.w);
      auto expect = [&](const std::vector<int>& at, int want, const char* what) {
        if (at.empty() || at[size_t(i)] < 0) return;
        written[size_t(at[size_t(i)])] = 1;
        EXPECT_EQ(int((*bytes)[size_t(at[size_t(i)])]), want) << what << " of pixel " << i;
      };
      if (isYuv(l.f) || l.second.empty()) {
        expect(l.first, p[0], "Y"), expect(l.second, 128, "Cb"), expect(l.third, 128, "Cr");
      } else {
        expect(l.first, p[0], "R"), expect(l.second, p[1], "G"), expect(l.third, p[2], "B");
        expect(l.fourth, p[3], "A");
      }
    }
    for (size_t b = 0; b < l.bytes; ++b)  // bytes no component owns: the X of XRGB32 etc.
      if (!written[b]) {
        EXPECT_EQ((*bytes)[b], 255) << "padding byte " << b;
      }
  }
}

}  // namespace
}  // namespace esf
