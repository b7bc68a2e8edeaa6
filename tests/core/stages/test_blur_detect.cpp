// blurdetect on the GPU (BlurDetect) against the host's reference (BlurDetector, equal to ffmpeg
// frame by frame: tests/apps/esframe/test_run_detect.cpp), bit for bit: the figure's float bits
// (NaN where no block has edges, as the reference's). Each frame is imported and counted from
// the import's textures into a poisoned buffer; the reference reads the same frame's ffmpeg
// planes. Pictures: seeded noise, flat planes and pictures with edges of every direction (a
// blurred ramp, rectangles, diagonal lines); odd sizes, rows wider than a workgroup, 1080p; every
// layout the GPU reads (RGB and GREY from the import's RGBA8 image or packed buffer); planes, block
// sizes, radius and thresholds; streams of frames with different content and sizes (the gradients
// kept across planes and frames).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "core/image/gpu_image.hpp"
#include "core/import/frame_import.hpp"
#include "core/stages/blur_detect.hpp"
#include "core/stats/blurdetect.hpp"
#include "core/stats/ffmpeg_planes.hpp"
#include "tests/support/gl_test_context.hpp"
#include "tests/support/random_frame.hpp"

// A namespace of its own: the stage suites are compiled as one unity source.
namespace esf::blur_detect_test {
namespace {

constexpr PixelFormat kFormats[] = {
    PixelFormat::kYU12,   PixelFormat::kNV12,    PixelFormat::kNV21,    PixelFormat::kYUYV,
    PixelFormat::kUYVY,   PixelFormat::kYUV422P, PixelFormat::kYUV444P, PixelFormat::kGREY,
    PixelFormat::kRGB24,  PixelFormat::kBGR24,   PixelFormat::kRGBA32,  PixelFormat::kXRGB32,
    PixelFormat::kARGB32, PixelFormat::kABGR32,  PixelFormat::kXBGR32,
};

enum class Picture { kNoise, kFlat, kEdges, kShiftedEdges };

// Sample (x, y) of ffmpeg plane p of a picture with edges: a blurred triangle ramp along a
// slope, rectangles, and lines along both diagonals.
uint8_t edgeSample(int p, int x, int y, int shift) {
  const int t = (x * 3 + y + shift) % 48;
  const int ramp = (t < 24 ? t : 47 - t) * 4;
  const int rectangle = ((x + shift) / 7 + y / 5 + p) % 3 * 40;
  const bool line = (x + y + shift) % 11 < 2 || (x - y + 1000 + shift) % 13 < 2;
  return uint8_t(20 + ramp + rectangle + (line ? 80 : 0));
}

// Writes `picture` into each of the frame's ffmpeg planes, through the format table (the
// reference reads the same bytes through it).
void paint(test::TestFrame& t, Picture picture, int shift = 0) {
  if (picture == Picture::kNoise) return;
  const PixelFormatInfo& info = pixelFormatInfo(t.frame.format);
  std::vector<std::pair<const ComponentLocation*, std::pair<int, int>>> components;
  const int hs = info.chroma_horizontal_subsampling, vs = info.chroma_vertical_subsampling;
  if (info.colour == ColourFamily::kYuv)
    components = {{&info.y, {1, 1}}, {&info.cb, {hs, vs}}, {&info.cr, {hs, vs}}};
  else if (info.colour == ColourFamily::kGrey)
    components = {{&info.y, {1, 1}}};
  else
    components = {{&info.g, {1, 1}}, {&info.b, {1, 1}}, {&info.r, {1, 1}}};
  const int w = t.frame.width, h = t.frame.height;
  for (size_t p = 0; p < components.size(); ++p) {
    const ComponentLocation& at = *components[p].first;
    const auto [sx, sy] = components[p].second;
    const int stride = t.frame.planes[size_t(at.plane)].stride;
    const ComponentOffsetTable table = componentOffsets(info, at, w, h, stride);
    for (int y = 0; y < (h + sy - 1) / sy; ++y)
      for (int x = 0; x < (w + sx - 1) / sx; ++x)
        t.planes[size_t(at.plane)][table.row[size_t(y * sy)] + table.column[size_t(x * sx)]] =
            picture == Picture::kFlat ? uint8_t(77) : edgeSample(int(p), x, y, shift);
  }
}

int widthFor(PixelFormat f, int w) {
  return allowsOddWidth(f) || w % 2 == 0 ? w : w + 1;
}

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// One stream: the GPU stage and the reference, fed the same frames. `packed`: the import
// writes a packed RGBA buffer, not an RGBA8 image (GREY and RGB planes are read from it).
class Stream {
 public:
  explicit Stream(const BlurDetectConfig& config, const BlurDetectParams* params = nullptr,
                  bool packed = false)
      : reference_(config), packed_(packed) {
    GlContext& gl = test::glContext();
    Result<std::unique_ptr<FrameImporter>> importer = FrameImporter::create(gl);
    EXPECT_TRUE(importer.ok()) << importer.error().message;
    if (importer) importer_ = std::move(importer.value());
    Result<BlurDetect> made =
        BlurDetect::create(gl, params ? *params : BlurDetectParams::defaultsFor(gl), config);
    EXPECT_TRUE(made.ok()) << made.error().message;
    if (made) stage_.emplace(std::move(made.value()));
  }

  // Both figures of `frame`, the GPU's equal to the reference's bit for bit; returns the
  // reference's.
  float check(const Frame& frame) {
    const std::optional<FfmpegPlanes> planes = ffmpegPlanes(frame);
    EXPECT_TRUE(planes.has_value());
    const float want = planes ? reference_.detect(*planes) : 0.0f;
    if (!importer_ || !stage_) return want;
    const std::optional<ImportedPlaneLayout> layout = importedPlaneLayoutOf(frame.format);
    EXPECT_TRUE(layout.has_value()) << formatName(frame.format);
    if (!layout) return want;
    ImportOptions io;
    std::optional<PackedRgbaBuffer> packed;
    if (packed_) {
      Result<PackedRgbaBuffer> made = PackedRgbaBuffer::create(frame.width, frame.height);
      EXPECT_TRUE(made.ok()) << made.error().message;
      if (!made) return want;
      packed.emplace(std::move(made.value()));
      io.target_packed_rgba = packed->buffer();
    }
    Result<ImportedFrame> imported = importer_->import(frame, io);
    EXPECT_TRUE(imported.ok()) << imported.error().message;
    if (!imported) return want;
    const std::vector<BlurDetectPlane> gpu_planes = importedPlanesOf(*imported, *layout);
    EXPECT_FALSE(gpu_planes.empty());
    if (packed_ && layout->in_rgba) {
      EXPECT_TRUE(!gpu_planes.empty() && gpu_planes[0].packed != 0 && !gpu_planes[0].texture);
    }
    if (Status poisoned = stage_->poison(test::kPoison); !poisoned)
      ADD_FAILURE() << poisoned.error().message;
    Status ran = stage_->run(gpu_planes);
    EXPECT_TRUE(ran.ok()) << ran.error().message;
    Result<float> got = stage_->read();
    EXPECT_TRUE(got.ok()) << got.error().message;
    if (got) {
      EXPECT_EQ(bitsOf(*got), bitsOf(want)) << "GPU " << *got << ", reference " << want;
    }
    return want;
  }

 private:
  BlurDetector reference_;
  bool packed_;
  std::unique_ptr<FrameImporter> importer_;
  std::optional<BlurDetect> stage_;
};

void checkPictures(Stream& s, PixelFormat f, int w, int h, uint32_t seed, bool edges_expected) {
  test::TestFrame t = test::randomFrame(f, w, h, 3, test::kColorimetries[0], seed);
  {
    SCOPED_TRACE("noise");
    s.check(t.frame);
  }
  {
    SCOPED_TRACE("edges");
    paint(t, Picture::kEdges);
    const float blur = s.check(t.frame);
    if (edges_expected) {
      EXPECT_FALSE(std::isnan(blur));
      EXPECT_GT(blur, 0.0f);
    }
  }
  {
    SCOPED_TRACE("flat");
    paint(t, Picture::kFlat);
    s.check(t.frame);
  }
}

TEST(BlurDetect, EveryFormatAndSizeMatchesTheReference) {
  const int wide = BlurDetectParams::defaultsFor(test::glContext()).workgroup_x * 3 + 5;
  const std::pair<int, int> sizes[] = {{1, 1},   {4, 4},   {5, 5},    {257, 3},
                                       {3, 257}, {33, 17}, {wide, 9}, {64, 48}};
  uint32_t seed = 20;
  for (int planes : {1, 7, 15}) {
    BlurDetectConfig config;
    config.planes = planes;
    for (PixelFormat f : kFormats) {
      const std::optional<ImportedPlaneLayout> layout = importedPlaneLayoutOf(f);
      for (bool packed : {false, true}) {
        if (packed && !(layout && layout->in_rgba)) continue;  // YUV: the plane textures alone
        for (auto [w0, h] : sizes) {
          const int w = widthFor(f, w0);
          SCOPED_TRACE(testing::Message() << formatName(f) << " " << w << "x" << h << " planes "
                                          << planes << (packed ? " packed" : ""));
          Stream s(config, nullptr, packed);
          checkPictures(s, f, w, h, ++seed, w >= 33 && h >= 17);
        }
      }
    }
  }
}

TEST(BlurDetect, ParametersMatchTheReference) {
  struct Case {
    int block_width, block_height, radius, block_pct;
    float low, high;
  };
  const Case cases[] = {
      {-1, -1, 50, 80, 15.0f / 255, 30.0f / 255},
      {8, 8, 50, 80, 15.0f / 255, 30.0f / 255},
      {7, 5, 1, 80, 15.0f / 255, 30.0f / 255},
      {7, 5, 100, 50, 15.0f / 255, 30.0f / 255},
      {4000, 8, 50, 80, 15.0f / 255, 30.0f / 255},
      {1, 1, 100, 100, 0.02f, 0.05f},
      {16, 9, 3, 1, 0.3f, 0.6f},
      {-1, 5, 100, 80, 0.0f, 0.0f},
      {9, 9, 50, 80, 0.5f, 0.1f},
  };
  uint32_t seed = 300;
  for (const Case& c : cases) {
    for (int planes : {1, 7}) {
      BlurDetectConfig config;
      config.block_width = c.block_width, config.block_height = c.block_height;
      config.radius = c.radius, config.block_pct = c.block_pct;
      config.low = c.low, config.high = c.high, config.planes = planes;
      for (PixelFormat f : {PixelFormat::kYU12, PixelFormat::kYUYV, PixelFormat::kRGB24}) {
        SCOPED_TRACE(testing::Message()
                     << formatName(f) << " block " << c.block_width << "x" << c.block_height
                     << " radius " << c.radius << " pct " << c.block_pct << " low " << c.low
                     << " high " << c.high << " planes " << planes);
        Stream s(config);
        checkPictures(s, f, 66, 50, ++seed, false);
      }
    }
  }
}

// Frames of different content and size through one stage: non-maximum suppression at the
// interior's edge reads the gradients earlier planes and frames left, which the GPU keeps as
// the reference does (zeroed when plane 0's size changes).
TEST(BlurDetect, StreamsKeepTheReferenceState) {
  const std::pair<int, int> sizes[] = {{40, 30}, {40, 30}, {40, 30}, {24, 36},
                                       {24, 36}, {40, 30}, {5, 5},   {40, 30}};
  for (int planes : {1, 6, 7}) {
    for (PixelFormat f : {PixelFormat::kYU12, PixelFormat::kNV21, PixelFormat::kUYVY,
                          PixelFormat::kBGR24, PixelFormat::kGREY}) {
      BlurDetectConfig config;
      config.planes = planes;
      config.block_width = config.block_height = 8;
      Stream s(config);
      uint32_t seed = 500;
      int shift = 0;
      for (auto [w0, h] : sizes) {
        const int w = widthFor(f, w0);
        SCOPED_TRACE(testing::Message() << formatName(f) << " " << w << "x" << h << " planes "
                                        << planes << " frame " << seed);
        test::TestFrame t = test::randomFrame(f, w, h, 0, test::kColorimetries[1], ++seed);
        if (seed % 2) paint(t, Picture::kShiftedEdges, shift += 5);
        s.check(t.frame);
      }
    }
  }
}

// Workgroups of one invocation and of odd shapes: every workgroup boundary inside the planes.
TEST(BlurDetect, NarrowWorkgroupsMatchTheReference) {
  const std::pair<int, int> shapes[] = {{1, 1}, {4, 2}, {3, 5}};
  for (auto [x, y] : shapes) {
    BlurDetectParams params;
    params.workgroup_x = x, params.workgroup_y = y;
    BlurDetectConfig config;
    config.planes = 7;
    config.block_width = 7, config.block_height = 5;
    SCOPED_TRACE(testing::Message() << "workgroup " << x << "x" << y);
    Stream s(config, &params);
    checkPictures(s, PixelFormat::kNV12, 34, 21, 77, true);
  }
}

TEST(BlurDetect, LargeFrame) {
  for (PixelFormat f : {PixelFormat::kYU12, PixelFormat::kYUYV}) {
    BlurDetectConfig config;
    config.planes = 7;
    config.block_width = config.block_height = 32;
    SCOPED_TRACE(formatName(f));
    Stream s(config);
    checkPictures(s, f, 1920, 1080, 9, true);
  }
}

// A block layout past the driver's storage block size is refused, naming blurdetect's block
// size; formats ffmpeg's filters do not take have no layout.
TEST(BlurDetect, RefusesWhatItCannotCount) {
  GlContext& gl = test::glContext();
  BlurDetectConfig config;
  config.block_width = config.block_height = 1;
  config.planes = 7;
  Result<BlurDetect> made = BlurDetect::create(gl, BlurDetectParams::defaultsFor(gl), config);
  ASSERT_TRUE(made.ok()) << made.error().message;
  // Square planes whose 1x1 blocks need more than the storage block size.
  const int64_t side = int64_t(std::sqrt(double(gl.limits().max_ssbo_size) / 16)) + 1;
  ASSERT_LE(side, gl.limits().max_texture_size) << "a plane that size is not a texture";
  BlurDetectPlane plane;
  plane.texture = 1;  // never read: refused before any dispatch
  plane.width = plane.height = int(side);
  const BlurDetectPlane planes[] = {plane};
  Status ran = made->run(planes);
  ASSERT_FALSE(ran.ok());
  EXPECT_EQ(ran.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(ran.error().message.find("block_width x block_height"), std::string::npos)
      << ran.error().message;
  EXPECT_FALSE(made->read().ok());  // no counts of a refused run
  EXPECT_FALSE(made->figureOf({}).ok());

  // One whole-plane block whose sum of steps could pass 32 bits: 2 * radius * pixels.
  config.block_width = config.block_height = -1;
  config.radius = 100;
  made = BlurDetect::create(gl, BlurDetectParams::defaultsFor(gl), config);
  ASSERT_TRUE(made.ok()) << made.error().message;
  plane.width = 8192, plane.height = 2622;  // 21.5 M pixels: 4.29 G steps at the most
  const BlurDetectPlane wide[] = {plane};
  ran = made->run(wide);
  ASSERT_FALSE(ran.ok());
  EXPECT_EQ(ran.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(ran.error().message.find("block_width x block_height"), std::string::npos)
      << ran.error().message;

  EXPECT_TRUE(importedPlaneLayoutOf(PixelFormat::kRGBA32).has_value());
  EXPECT_FALSE(importedPlaneLayoutOf(PixelFormat::kMJPEG).has_value());
  EXPECT_FALSE(importedPlaneLayoutOf(PixelFormat::kSRGGB8).has_value());
  EXPECT_FALSE(importedPlaneLayoutOf(PixelFormat::kSRGGB10).has_value());
}

}  // namespace
}  // namespace esf::blur_detect_test
