// The executor's import against convertToRgbaCpu and extractLumaPlane, bit for bit: every format
// of the pixel-format table, seeded random bytes (every Y/Cb/Cr value, in and out of the limited
// range), odd sizes, padded strides, every colorimetry, poisoned outputs, several thread counts.
#include <gtest/gtest.h>

#include <mutex>
#include <random>
#include <set>

#include "base/pixel_format.hpp"
#include "capture/frame_encode.hpp"
#include "core/cpu/cpu_import.hpp"
#include "core/cpu/simd_kernels.hpp"
#include "core/import/import_reference.hpp"
#include "tests/core/cpu/cpu_test_util.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/random_frame.hpp"

namespace esf {
namespace {

using test::kColorimetries;

void expectSameImage(const RgbaImage& got, const RgbaImage& want, const std::string& what) {
  ASSERT_EQ(got.width, want.width) << what;
  ASSERT_EQ(got.height, want.height) << what;
  for (size_t i = 0; i < got.pixels.size(); ++i)
    ASSERT_EQ(int(got.pixels[i]), int(want.pixels[i]))
        << what << ": pixel " << i / 4 % size_t(want.width) << "," << i / 4 / size_t(want.width)
        << " channel " << i % 4;
}

// Imports `frame` into a poisoned image, collecting the rows handed to the callback.
struct Imported {
  RgbaImage image;
  std::vector<uint8_t> luma;  // the callback's luma rows, in place
  std::set<int> rows, luma_rows;
};
// rows_only: importRowsCpu, whose rows (in scratch, not kept) the callback copies into the image.
Imported importWithRows(const Frame& frame, RowPool& pool, bool rows_only = false) {
  Imported out;
  out.image = test::poisonedImage(frame.width, frame.height);
  out.luma.assign(size_t(frame.width) * size_t(frame.height), 0xA5);
  std::mutex mutex;
  auto on_row = [&](int y, const uint8_t* rgba, const uint8_t* luma, int) {
    std::lock_guard lock(mutex);
    if (rows_only)
      std::copy(rgba, rgba + 4 * size_t(frame.width), out.image.at(0, y));
    else
      EXPECT_EQ(rgba, out.image.at(0, y));  // the row as written into the image
    out.rows.insert(y);
    if (luma) {
      out.luma_rows.insert(y);
      std::copy(luma, luma + frame.width, out.luma.begin() + ptrdiff_t(y) * frame.width);
    }
  };
  Status s =
      rows_only ? importRowsCpu(frame, pool, on_row) : importCpu(frame, out.image, pool, on_row);
  EXPECT_TRUE(s.ok()) << s.error().message;
  return out;
}

class CpuImportEveryFormat : public ::testing::TestWithParam<PixelFormat> {};

TEST_P(CpuImportEveryFormat, EqualsReference) {
  const PixelFormat f = GetParam();
  uint32_t seed = 1;
  for (auto [w, h] : test::importSizes(f))
    for (const auto& c : kColorimetries) {
      if (!isYuv(f) && &c != &kColorimetries[0]) continue;  // colorimetry is YUV only
      for (int pad : {0, 13})
        for (int threads : test::kThreadCounts) {
          test::TestFrame t = test::randomFrame(f, w, h, pad, c, seed++);
          const std::string what = std::string(formatName(f)) + " " + std::to_string(w) + "x" +
                                   std::to_string(h) + " pad " + std::to_string(pad) + " " +
                                   colorimetryName(c) + " " + std::to_string(threads) + " threads";
          Result<RgbaImage> want = convertToRgbaCpu(t.frame);
          ASSERT_TRUE(want.ok()) << want.error().message;
          RowPool pool(threads);
          Imported got = importWithRows(t.frame, pool);
          expectSameImage(got.image, *want, what);
          EXPECT_EQ(int(got.rows.size()), h) << what;
          Imported rows = importWithRows(t.frame, pool, true);
          expectSameImage(rows.image, *want, what + " (rows only)");
          EXPECT_EQ(int(rows.rows.size()), h) << what << " (rows only)";
          EXPECT_EQ(rows.luma, got.luma) << what << " (rows only)";
          Result<std::vector<uint8_t>> y = extractLumaPlane(t.frame);
          if (y) {
            EXPECT_EQ(int(got.luma_rows.size()), h) << what;
            EXPECT_EQ(got.luma, *y) << what << ": the rows' luma is the source's Y plane";
          } else {
            EXPECT_TRUE(got.luma_rows.empty()) << what << ": RGB frames have no source luma";
          }
        }
    }
}

TEST(CpuImportLuma, RowsAreTheYPlaneOfEveryYuvAndGreyFormat) {
  // importLumaCpu hands over the Y bytes alone (no RGBA): equal to extractLumaPlane, each row
  // exactly once; formats without a luma plane are refused.
  uint32_t seed = 7;
  for (PixelFormat f : allPixelFormats()) {
    if (isBayer(f)) continue;  // no luma plane; Bayer frames: test_cpu_bayer, test_bayer_backends
    for (auto [w, h] : test::importSizes(f))
      for (int threads : test::kThreadCounts) {
        test::TestFrame t = test::randomFrame(f, w, h, 13, kColorimetries[0], seed++);
        RowPool pool(threads);
        std::vector<uint8_t> luma(size_t(w) * size_t(h), 0xA5);
        std::vector<int> seen(size_t(h), 0);
        std::mutex mutex;
        Status s =
            importLumaCpu(t.frame, pool, [&](int y, const uint8_t* rgba, const uint8_t* row, int) {
              std::lock_guard lock(mutex);
              EXPECT_EQ(rgba, nullptr);
              ++seen[size_t(y)];
              std::copy(row, row + w, luma.begin() + ptrdiff_t(y) * w);
            });
        const std::string what = std::string(formatName(f)) + " " + std::to_string(w) + "x" +
                                 std::to_string(h) + " " + std::to_string(threads) + " threads";
        Result<std::vector<uint8_t>> want = extractLumaPlane(t.frame);
        if (!want || isCompressed(f)) {
          ASSERT_FALSE(s.ok()) << what << ": no luma plane, so refused";
          EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
          EXPECT_EQ(seen, std::vector<int>(size_t(h), 0)) << what;
          continue;
        }
        ASSERT_TRUE(s.ok()) << what << ": " << s.error().message;
        EXPECT_EQ(seen, std::vector<int>(size_t(h), 1)) << what;
        EXPECT_EQ(luma, *want) << what;
      }
  }
}

std::vector<PixelFormat> rawFormats() {
  std::vector<PixelFormat> v;
  for (PixelFormat f : allPixelFormats())
    if (!isCompressed(f) && !isBayer(f)) v.push_back(f);  // Bayer: test_bayer_import
  return v;
}

INSTANTIATE_TEST_SUITE_P(Formats, CpuImportEveryFormat, ::testing::ValuesIn(rawFormats()),
                         [](const auto& info) { return std::string(formatName(info.param)); });

TEST(CpuImport, FlatFramesOfEveryFormat) {
  // Flat RGBA encoded into each format: extremes of the range and mid-grey.
  for (PixelFormat f : rawFormats())
    for (test::Content content :
         {test::Content::kFlat0, test::Content::kFlat255, test::Content::kFlat128}) {
      const RgbaImage src = test::makeImage(34, 9, content);
      Result<std::vector<uint8_t>> bytes = encodeRgba(src, f, {});
      ASSERT_TRUE(bytes.ok()) << bytes.error().message;
      Frame frame;
      frame.format = f, frame.width = src.width, frame.height = src.height;
      ASSERT_TRUE(attachTightPlanes(frame, bytes->data(), bytes->size()).ok());
      RowPool pool(2);
      Result<RgbaImage> want = convertToRgbaCpu(frame);
      ASSERT_TRUE(want.ok()) << want.error().message;
      expectSameImage(importWithRows(frame, pool).image, *want,
                      std::string(formatName(f)) + " " + test::contentName(content));
    }
}

TEST(CpuImport, MjpegDecodesThenEqualsReferenceWithoutSourceLuma) {
  const RgbaImage src = test::makeImage(67, 35, test::Content::kGradient);
  Result<std::vector<uint8_t>> jpeg = encodeRgba(src, PixelFormat::kMJPEG, {});
  ASSERT_TRUE(jpeg.ok());
  Frame frame;
  frame.format = PixelFormat::kMJPEG, frame.width = src.width, frame.height = src.height;
  frame.plane_count = 1;
  frame.planes[0] = FramePlane{jpeg->data(), jpeg->size(), 0};
  RowPool pool(2);
  Imported got = importWithRows(frame, pool);
  Result<RgbaImage> want = convertToRgbaCpu(frame);
  ASSERT_TRUE(want.ok()) << want.error().message;
  expectSameImage(got.image, *want, "MJPEG");
  EXPECT_TRUE(got.luma_rows.empty());
}

TEST(CpuImport, ComponentRowKernelsEqualTheirFormulasAndStopAtTheLastSample) {
  // The packed-Y and subsampled-chroma row kernels against their scalar formulas, at every width
  // up to past two AVX-512 vectors, each input exactly as long as the row needs (the asan preset
  // reports a read past it).
  std::mt19937 rng(11);
  for (int step : {1, 2, 4})
    for (int n = 1; n <= 300; ++n) {
      const size_t halved_len = size_t((n - 1) / 2) * size_t(step) + 1;
      const size_t picked_len = size_t(n - 1) * size_t(step) + 1;
      std::vector<uint8_t> halved(halved_len), picked(picked_len);
      for (uint8_t& v : halved) v = uint8_t(rng());
      for (uint8_t& v : picked) v = uint8_t(rng());
      std::vector<uint8_t> got(size_t(n), 0xA5), want(size_t(n), 0);
      for (int x = 0; x < n; ++x) want[size_t(x)] = halved[size_t(x / 2) * size_t(step)];
      simd::repeatHalvedBytes(halved.data(), step, n, got.data());
      ASSERT_EQ(got, want) << "repeatHalvedBytes step " << step << " width " << n;
      if (step == 1) continue;
      std::fill(got.begin(), got.end(), 0xA5);
      for (int x = 0; x < n; ++x) want[size_t(x)] = picked[size_t(x) * size_t(step)];
      simd::pickBytes(picked.data(), step, n, got.data());
      ASSERT_EQ(got, want) << "pickBytes step " << step << " width " << n;
    }
}

TEST(CpuImport, RefusesWhatTheReferenceRefuses) {
  test::TestFrame t = test::randomFrame(PixelFormat::kNV12, 16, 8, 0, {}, 3);
  t.frame.plane_count = 1;
  RowPool pool(2);
  RgbaImage out = test::poisonedImage(16, 8);
  const RgbaImage before = out;
  Status s = importCpu(t.frame, out, pool);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(s.error().message, convertToRgbaCpu(t.frame).error().message);
  EXPECT_EQ(out, before) << "nothing half-written";
  t.frame.plane_count = 2;
  t.frame.planes[1].data = nullptr;
  EXPECT_FALSE(importCpu(t.frame, out, pool).ok());
}

}  // namespace
}  // namespace esf
