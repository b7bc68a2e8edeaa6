// signalstats' TOUT and VREP on the GPU (LumaSignalstats) from the Y plane texture the import
// read, against the CPU reference (lumaOutliers, repeatedRows) of the Y bytes as this test reads
// them from each format's known byte layout (not through the pixel-format table), and against
// counts known by construction: every YUV layout, odd sizes, rows wider than a workgroup's
// invocations, seeded noise, flat planes, planes made of outlier rows and of repeated rows, a
// poisoned output buffer before every run.
#include <gtest/gtest.h>

#include <cstring>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "core/import/frame_import.hpp"
#include "core/stages/luma_signalstats.hpp"
#include "core/stats/signalstats.hpp"
#include "tests/support/gl_test_context.hpp"
#include "tests/support/random_frame.hpp"

// A namespace of its own: the stage suites are compiled as one unity source.
namespace esf::luma_signalstats_test {
namespace {

// Where each format keeps pixel (x, y)'s Y: plane 0, byte x_step * x + offset of row y.
struct YLayout {
  PixelFormat format;
  int x_step, offset;
};
constexpr YLayout kLayouts[] = {
    {PixelFormat::kNV12, 1, 0},    {PixelFormat::kNV21, 1, 0}, {PixelFormat::kYU12, 1, 0},
    {PixelFormat::kYUYV, 2, 0},    {PixelFormat::kUYVY, 2, 1}, {PixelFormat::kYUV422P, 1, 0},
    {PixelFormat::kYUV444P, 1, 0},
};

uint8_t& yAt(test::TestFrame& t, const YLayout& l, int x, int y) {
  const FramePlane& p = t.frame.planes[0];
  return t.planes[0][size_t(y) * size_t(p.stride) + size_t(l.x_step * x + l.offset)];
}

std::vector<uint8_t> yByHand(test::TestFrame& t, const YLayout& l) {
  std::vector<uint8_t> luma;
  for (int y = 0; y < t.frame.height; ++y)
    for (int x = 0; x < t.frame.width; ++x) luma.push_back(yAt(t, l, x, y));
  return luma;
}

// The frame's width where the format takes it (YUYV and UYVY: even widths).
int widthFor(const YLayout& l, int w) {
  return allowsOddWidth(l.format) || w % 2 == 0 ? w : w + 1;
}

LumaSignalstats makeStage(bool tout, bool vrep, const LumaSignalstatsParams* params = nullptr) {
  GlContext& gl = test::glContext();
  Result<LumaSignalstats> made = LumaSignalstats::create(
      gl, params ? *params : LumaSignalstatsParams::defaultsFor(gl), tout, vrep);
  EXPECT_TRUE(made.ok()) << made.error().message;
  return std::move(made.value());
}

// The GPU's counts of `frame`: imported, then counted from the import's Y plane texture, into a
// poisoned buffer.
LumaSignalstatsCounts countOnGpu(FrameImporter& importer, LumaSignalstats& stage,
                                 const Frame& frame) {
  Result<ImportedFrame> imported = importer.import(frame);
  EXPECT_TRUE(imported.ok()) << imported.error().message;
  if (!imported) return {};
  if (Status poisoned = stage.poison(test::kPoison); !poisoned)
    ADD_FAILURE() << poisoned.error().message;
  Status ran = stage.run(lumaPlaneOf(*imported, lumaInGreen(frame.format)));
  EXPECT_TRUE(ran.ok()) << ran.error().message;
  Result<LumaSignalstatsCounts> got = stage.read();
  EXPECT_TRUE(got.ok()) << got.error().message;
  return got ? got.value() : LumaSignalstatsCounts{};
}

// The reference's counts of `t`'s Y (checked against the host's figures of the frame), the
// GPU's equal to them; returns the reference's.
LumaSignalstatsCounts check(FrameImporter& importer, LumaSignalstats& stage, test::TestFrame& t,
                            const YLayout& l) {
  const std::vector<uint8_t> luma = yByHand(t, l);
  const int w = t.frame.width, h = t.frame.height;
  LumaSignalstatsCounts want{lumaOutliers(luma, w, h), repeatedRows(luma, w, h)};
  const std::optional<SignalstatsFigures> host = lumaSignalstats(t.frame, true, true);
  EXPECT_TRUE(host.has_value());
  if (host) {
    EXPECT_EQ(host->tout_pixels.value_or(~uint64_t(0)), want.outlier_pixels);
    EXPECT_EQ(host->vrep_rows.value_or(~uint64_t(0)), want.repeated_rows);
  }
  const LumaSignalstatsCounts got = countOnGpu(importer, stage, t.frame);
  EXPECT_EQ(got.outlier_pixels, want.outlier_pixels) << "TOUT";
  EXPECT_EQ(got.repeated_rows, want.repeated_rows) << "VREP";
  return want;
}

// Rows y = 1 (mod 3) bright, the others dark: each such row's pixels are outliers against the
// rows 1 and 2 away, but where a column every 11th (x = 5 mod 11) breaks the row.
void outlierRows(test::TestFrame& t, const YLayout& l) {
  for (int y = 0; y < t.frame.height; ++y)
    for (int x = 0; x < t.frame.width; ++x)
      yAt(t, l, x, y) = y % 3 == 1 && x % 11 != 5 ? uint8_t(230 - x % 7) : uint8_t(20 + x % 5);
}

// Rows 0-3 noise below 100; each later row is the row 4 above plus 1 on its first W - 1 pixels
// (y = 0 mod 3: a sum of W - 1, repeated), on all W (y = 1 mod 3: a sum of W, not repeated), or
// on none (y = 2 mod 3: repeated). Returns the rows repeated by that construction.
uint64_t repeatedByConstruction(test::TestFrame& t, const YLayout& l, uint32_t seed) {
  std::mt19937 rng(seed);
  const int w = t.frame.width, h = t.frame.height;
  uint64_t repeated = 0;
  for (int y = 0; y < h; ++y) {
    const int changed = y % 3 == 0 ? w - 1 : y % 3 == 1 ? w : 0;
    for (int x = 0; x < w; ++x)
      yAt(t, l, x, y) =
          y < 4 ? uint8_t(rng() % 100) : uint8_t(yAt(t, l, x, y - 4) + (x < changed ? 1 : 0));
    if (y >= 4 && y % 3 != 1) ++repeated;
  }
  return repeated;
}

// The sizes: odd ones, and rows wider than the stage's invocations along a row.
std::vector<std::pair<int, int>> sizesFor(const LumaSignalstats& stage) {
  const int wide = stage.params().row_invocations * 3 + 5;
  return {{1, 1}, {3, 3}, {257, 3}, {5, 5}, {33, 17}, {wide, 9}, {2, 6}, {64, 48}};
}

void checkEveryContent(FrameImporter& importer, LumaSignalstats& stage) {
  uint32_t seed = 90;
  for (const YLayout& l : kLayouts) {
    for (auto [w0, h] : sizesFor(stage)) {
      const int w = widthFor(l, w0);
      for (int pad : {0, 3}) {
        SCOPED_TRACE(testing::Message()
                     << formatName(l.format) << " " << w << "x" << h << " pad " << pad);
        test::TestFrame t = test::randomFrame(l.format, w, h, pad, test::kColorimetries[0], ++seed);
        {
          SCOPED_TRACE("noise");
          check(importer, stage, t, l);
        }
        {
          SCOPED_TRACE("flat");
          for (std::vector<uint8_t>& p : t.planes) std::memset(p.data(), 77, p.size());
          const LumaSignalstatsCounts want = check(importer, stage, t, l);
          EXPECT_EQ(want.outlier_pixels, 0u);
          EXPECT_EQ(want.repeated_rows, uint64_t(std::max(0, h - 4)));
        }
        {
          SCOPED_TRACE("outlier rows");
          outlierRows(t, l);
          const LumaSignalstatsCounts want = check(importer, stage, t, l);
          if (w >= 3 && h >= 3) {
            EXPECT_GT(want.outlier_pixels, 0u);
          }
        }
        {
          SCOPED_TRACE("repeated rows");
          const uint64_t repeated = repeatedByConstruction(t, l, seed);
          const LumaSignalstatsCounts want = check(importer, stage, t, l);
          EXPECT_EQ(want.repeated_rows, repeated);
          if (h >= 6) {  // row 4 is the y = 1 (mod 3) kind
            EXPECT_GT(repeated, 0u);
          }
        }
      }
    }
  }
}

TEST(LumaSignalstats, EveryYuvLayoutMatchesTheReference) {
  Result<std::unique_ptr<FrameImporter>> importer = FrameImporter::create(test::glContext());
  ASSERT_TRUE(importer.ok()) << importer.error().message;
  LumaSignalstats stage = makeStage(true, true);
  checkEveryContent(**importer, stage);
}

// Few invocations along a row and rows a workgroup: long runs, many run boundaries inside an
// outlier row, many workgroups down the frame.
TEST(LumaSignalstats, NarrowWorkgroupsMatchTheReference) {
  GlContext& gl = test::glContext();
  Result<std::unique_ptr<FrameImporter>> importer = FrameImporter::create(gl);
  ASSERT_TRUE(importer.ok()) << importer.error().message;
  const std::pair<int, int> shapes[] = {{1, 1}, {4, 2}, {3, 5}};
  for (auto [x, y] : shapes) {
    SCOPED_TRACE(testing::Message() << "workgroup " << x << "x" << y);
    LumaSignalstatsParams p;
    p.row_invocations = x;
    p.workgroup_rows = y;
    LumaSignalstats stage = makeStage(true, true, &p);
    checkEveryContent(**importer, stage);
  }
}

// A 1080p frame, noise and outlier rows.
TEST(LumaSignalstats, LargeFrame) {
  Result<std::unique_ptr<FrameImporter>> importer = FrameImporter::create(test::glContext());
  ASSERT_TRUE(importer.ok()) << importer.error().message;
  LumaSignalstats stage = makeStage(true, true);
  for (const YLayout& l : {kLayouts[0], kLayouts[4]}) {
    SCOPED_TRACE(formatName(l.format));
    test::TestFrame t = test::randomFrame(l.format, 1920, 1080, 0, test::kColorimetries[2], 7);
    check(**importer, stage, t, l);
    outlierRows(t, l);
    EXPECT_GT(check(**importer, stage, t, l).outlier_pixels, 400000u);
  }
}

// TOUT alone and VREP alone: the other count is 0 whatever the poisoned buffer held.
TEST(LumaSignalstats, EachAloneCountsOnlyItself) {
  Result<std::unique_ptr<FrameImporter>> importer = FrameImporter::create(test::glContext());
  ASSERT_TRUE(importer.ok()) << importer.error().message;
  const YLayout& l = kLayouts[0];
  test::TestFrame t = test::randomFrame(l.format, 33, 17, 0, test::kColorimetries[0], 3);
  outlierRows(t, l);
  const std::vector<uint8_t> luma = yByHand(t, l);
  const uint64_t outliers = lumaOutliers(luma, 33, 17), rows = repeatedRows(luma, 33, 17);
  ASSERT_GT(outliers, 0u);
  ASSERT_GT(rows, 0u);
  LumaSignalstats tout = makeStage(true, false), vrep = makeStage(false, true);
  const LumaSignalstatsCounts got_tout = countOnGpu(**importer, tout, t.frame);
  EXPECT_EQ(got_tout.outlier_pixels, outliers);
  EXPECT_EQ(got_tout.repeated_rows, 0u);
  const LumaSignalstatsCounts got_vrep = countOnGpu(**importer, vrep, t.frame);
  EXPECT_EQ(got_vrep.outlier_pixels, 0u);
  EXPECT_EQ(got_vrep.repeated_rows, rows);
}

TEST(LumaSignalstats, RefusesWhatItCannotCount) {
  GlContext& gl = test::glContext();
  Result<LumaSignalstats> neither =
      LumaSignalstats::create(gl, LumaSignalstatsParams::defaultsFor(gl), false, false);
  ASSERT_FALSE(neither.ok());
  EXPECT_EQ(neither.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(neither.error().message.find("luma signalstats"), std::string::npos);
  LumaSignalstatsParams wide = LumaSignalstatsParams::defaultsFor(gl);
  wide.row_invocations = gl.limits().work_group_size[0] + 1;
  EXPECT_FALSE(LumaSignalstats::create(gl, wide, true, true).ok());
  LumaSignalstats stage = makeStage(true, true);
  EXPECT_FALSE(stage.read().ok());            // before a run
  EXPECT_FALSE(stage.run(LumaPlane{}).ok());  // no plane
  EXPECT_FALSE(stage.countsOf(std::vector<uint32_t>(2, 0)).ok());
}

}  // namespace
}  // namespace esf::luma_signalstats_test
