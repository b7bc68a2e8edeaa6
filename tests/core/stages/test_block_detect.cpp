// blockdetect on the GPU (GpuBlockDetect over the BlockDetect stage) against the CPU reference,
// BlockDetector::detect of the frame's ffmpeg planes, float bit for bit (a NaN as a NaN): every
// YUV layout, GREY and RGB (from the RGBA image, and imported into a packed buffer) with planes 1,
// 7 and 15; seeded noise, flat planes (every gradient divided by the clamp), 8x8 blocks built to be
// blocky; odd sizes, rows past one workgroup and 1080p; several frames in a row with a size
// change between them (the persistent gradients); period edges; a poisoned slices buffer before
// every frame. And the shader's quotient against the host's float division for every d / t.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/image/gpu_image.hpp"
#include "core/import/frame_import.hpp"
#include "core/pipeline/frame_readback.hpp"
#include "core/pipeline/gpu_detectors.hpp"
#include "core/stats/blockdetect.hpp"
#include "core/stats/ffmpeg_planes.hpp"
#include "glsl_es/embedded_file.hpp"
#include "platform/shader_library.hpp"
#include "tests/support/gl_test_context.hpp"
#include "tests/support/random_frame.hpp"

// A namespace of its own: the stage suites are compiled as one unity source.
namespace esf::block_detect_test {
namespace {

// The float's bits; every NaN as one.
uint32_t bitsOf(float f) {
  return std::isnan(f) ? 0x7FC00000u : std::bit_cast<uint32_t>(f);
}

constexpr PixelFormat kFormats[] = {
    PixelFormat::kYU12,  PixelFormat::kNV12,    PixelFormat::kNV21,   PixelFormat::kYUYV,
    PixelFormat::kUYVY,  PixelFormat::kYUV422P, PixelFormat::kGREY,   PixelFormat::kRGB24,
    PixelFormat::kBGR24, PixelFormat::kRGBA32,  PixelFormat::kARGB32, PixelFormat::kXBGR32,
};

// Writes f(component, x, y) into each component's sample (x, y) of `t` (chroma at chroma
// resolution), through the format table's offsets.
template <typename Fn>
void fillComponents(test::TestFrame& t, Fn f) {
  const PixelFormatInfo& info = pixelFormatInfo(t.frame.format);
  const int hsub = info.chroma_horizontal_subsampling, vsub = info.chroma_vertical_subsampling;
  const ComponentLocation* all[] = {&info.y, &info.cb, &info.cr, &info.g,
                                    &info.b, &info.r,  &info.a};
  for (int c = 0; c < 7; ++c) {
    const ComponentLocation& at = *all[c];
    if (!at.present()) continue;
    const int sx = at.subsampled ? hsub : 1, sy = at.subsampled ? vsub : 1;
    const FramePlane& plane = t.frame.planes[size_t(at.plane)];
    const ComponentOffsetTable table =
        componentOffsets(info, at, t.frame.width, t.frame.height, plane.stride);
    for (int y = 0; y * sy < t.frame.height; ++y)
      for (int x = 0; x * sx < t.frame.width; ++x)
        t.planes[size_t(at.plane)][table.row[size_t(y * sy)] + table.column[size_t(x * sx)]] =
            f(c, x, y);
  }
}

// Flat 8x8 blocks of levels far apart, with a little noise inside: strong steps on the 8-grid.
void blocky(test::TestFrame& t, uint32_t seed) {
  std::mt19937 rng(seed);
  fillComponents(t, [&](int c, int x, int y) {
    const int level = int((x / 8 * 37 + y / 8 * 91 + c * 53) % 200);
    return uint8_t(20 + level + int(rng() % 3));
  });
}

void flat(test::TestFrame& t) {
  for (std::vector<uint8_t>& p : t.planes) std::memset(p.data(), 77, p.size());
}

int widthFor(PixelFormat f, int w) {
  return allowsOddWidth(f) || w % 2 == 0 ? w : w + 1;
}

// The GPU path and the reference, frame after frame, each with its own state.
class Both {
 public:
  Both(PixelFormat format, const BlockDetectConfig& config, bool packed)
      : config_(config), gpu_(test::glContext(), config), reference_(config), packed_(packed) {
    Result<std::unique_ptr<FrameImporter>> made = FrameImporter::create(test::glContext());
    EXPECT_TRUE(made.ok()) << made.error().message;
    if (made) importer_ = std::move(made.value());
    Status s = gpu_.configureFor(format, packed);
    EXPECT_TRUE(s.ok()) << s.error().message;
  }

  // The reference's figure of `frame`; the GPU's equal to it, bit for bit.
  float check(const Frame& frame) {
    const std::optional<FfmpegPlanes> planes = ffmpegPlanes(frame, unsigned(config_.planes));
    EXPECT_TRUE(planes.has_value());
    if (!planes) return 0;
    const float want = reference_.detect(*planes);
    const std::optional<float> got = gpuFigure(frame);
    EXPECT_TRUE(got.has_value());
    if (got) {
      EXPECT_EQ(bitsOf(*got), bitsOf(want)) << "GPU " << *got << ", reference " << want;
    }
    return want;
  }

 private:
  std::optional<float> gpuFigure(const Frame& frame) {
    if (!importer_) return std::nullopt;
    EXPECT_TRUE(gpu_.counts(frame.format));
    ImportOptions io;
    if (packed_) {
      if (!packed_buffer_ || packed_buffer_->width() != frame.width ||
          packed_buffer_->height() != frame.height) {
        Result<PackedRgbaBuffer> b = PackedRgbaBuffer::create(frame.width, frame.height);
        EXPECT_TRUE(b.ok()) << b.error().message;
        if (!b) return std::nullopt;
        packed_buffer_.emplace(std::move(b.value()));
      }
      io.target_packed_rgba = packed_buffer_->buffer();
    }
    Result<ImportedFrame> imported = importer_->import(frame, io);
    EXPECT_TRUE(imported.ok()) << imported.error().message;
    if (!imported) return std::nullopt;
    if (Status s = gpu_.poison(test::kPoison); !s) ADD_FAILURE() << s.error().message;
    if (Status s = gpu_.count(*imported); !s) {
      ADD_FAILURE() << s.error().message;
      return std::nullopt;
    }
    readback_.clear();
    gpu_.addReadback(readback_);
    if (Status s = readback_.gather(); !s) ADD_FAILURE() << s.error().message;
    if (Status s = readback_.read(); !s) ADD_FAILURE() << s.error().message;
    FrameResult r;
    if (Status s = gpu_.collect(frame, r, readback_); !s) ADD_FAILURE() << s.error().message;
    return r.block;
  }

  BlockDetectConfig config_;
  GpuBlockDetect gpu_;
  BlockDetector reference_;
  bool packed_ = false;
  std::unique_ptr<FrameImporter> importer_;
  std::optional<PackedRgbaBuffer> packed_buffer_;
  FrameReadback readback_;
};

BlockDetectConfig withPlanes(int planes, int period_min = 3, int period_max = 24) {
  BlockDetectConfig c;
  c.planes = planes, c.period_min = period_min, c.period_max = period_max;
  return c;
}

bool isRgb(PixelFormat f) {
  return pixelFormatInfo(f).colour == ColourFamily::kRgb;
}

// Each format, size and content, frame after frame through one detector pair (the sizes change
// between frames: the gradients start again at each).
void checkFormat(PixelFormat format, int planes, bool packed) {
  SCOPED_TRACE(testing::Message() << formatName(format) << " planes " << planes
                                  << (packed ? " packed" : ""));
  Both both(format, withPlanes(planes), packed);
  const int wide = BlockDetectParams::defaultsFor(test::glContext()).invocations * 3 + 5;
  const std::pair<int, int> sizes[] = {{1, 1},   {3, 3},   {7, 7},     {8, 9},
                                       {257, 3}, {33, 17}, {wide, 21}, {64, 48}};
  uint32_t seed = 500;
  for (auto [w0, h] : sizes) {
    const int w = widthFor(format, w0);
    SCOPED_TRACE(testing::Message() << w << "x" << h);
    test::TestFrame t = test::randomFrame(format, w, h, 3, test::kColorimetries[0], ++seed);
    {
      SCOPED_TRACE("noise, then other noise: the sums carry the frame before");
      both.check(t.frame);
      t = test::randomFrame(format, w, h, 3, test::kColorimetries[0], ++seed);
      both.check(t.frame);
    }
    {
      SCOPED_TRACE("flat");
      flat(t);
      both.check(t.frame);
    }
    {
      SCOPED_TRACE("blocky");
      blocky(t, ++seed);
      const float want = both.check(t.frame);
      if (w >= 32 && h >= 32) {
        EXPECT_GT(want, 1.5f);  // the content is what the test means it to be
      }
    }
  }
}

TEST(BlockDetect, EveryFormatAndPlaneMaskMatchesTheReference) {
  for (PixelFormat format : kFormats)
    for (int planes : {1, 7, 15}) checkFormat(format, planes, false);
}

// Imported into a packed buffer: RGB from its words, the others still from their planes.
TEST(BlockDetect, PackedImportsMatchTheReference) {
  for (PixelFormat format : kFormats)
    for (int planes : isRgb(format) ? std::vector<int>{1, 15} : std::vector<int>{7})
      checkFormat(format, planes, true);
}

// The periods' edges, on blocky frames and noise.
TEST(BlockDetect, PeriodEdgesMatchTheReference) {
  for (auto [lo, hi] : {std::pair{2, 2}, std::pair{32, 64}, std::pair{2, 64}, std::pair{8, 8}}) {
    SCOPED_TRACE(testing::Message() << "periods " << lo << ".." << hi);
    Both both(PixelFormat::kYU12, withPlanes(7, lo, hi), false);
    test::TestFrame t =
        test::randomFrame(PixelFormat::kYU12, 150, 130, 0, test::kColorimetries[0], 3);
    both.check(t.frame);
    blocky(t, 4);
    both.check(t.frame);
  }
}

// 1080p, three frames: noise, blocks, noise; then a size change and back.
TEST(BlockDetect, LargeFramesInARow) {
  for (PixelFormat format : {PixelFormat::kNV12, PixelFormat::kRGB24}) {
    SCOPED_TRACE(formatName(format));
    Both both(format, withPlanes(7), false);
    test::TestFrame t = test::randomFrame(format, 1920, 1080, 0, test::kColorimetries[0], 11);
    both.check(t.frame);
    blocky(t, 12);
    EXPECT_GT(both.check(t.frame), 1.5f);
    t = test::randomFrame(format, 1920, 1080, 0, test::kColorimetries[0], 13);
    both.check(t.frame);
    test::TestFrame small = test::randomFrame(format, 320, 240, 0, test::kColorimetries[0], 14);
    both.check(small.frame);
    both.check(t.frame);
  }
}

// The stage itself with other shapes (one invocation a workgroup, runs of one gradient, runs
// across workgroups' edges) on GREY frames, frame after frame, read back by its own read().
TEST(BlockDetect, OtherShapesMatchTheReference) {
  GlContext& gl = test::glContext();
  Result<std::unique_ptr<FrameImporter>> importer = FrameImporter::create(gl);
  ASSERT_TRUE(importer.ok()) << importer.error().message;
  const BlockDetectConfig config = withPlanes(1);
  for (auto [invocations, run] :
       {std::pair{1, 1}, std::pair{7, 3}, std::pair{64, 1}, std::pair{3, 64}}) {
    SCOPED_TRACE(testing::Message() << invocations << " invocations, runs of " << run);
    BlockDetectParams params;
    params.invocations = invocations, params.run_length = run;
    Result<BlockDetect> stage = BlockDetect::create(gl, params);
    ASSERT_TRUE(stage.ok()) << stage.error().message;
    BlockDetector reference(config);
    uint32_t seed = 40;
    for (auto [w, h] :
         {std::pair{97, 61}, std::pair{97, 61}, std::pair{8, 9}, std::pair{70, 200}}) {
      test::TestFrame t =
          test::randomFrame(PixelFormat::kGREY, w, h, 0, test::kColorimetries[0], ++seed);
      if (seed % 2) blocky(t, seed);
      const std::optional<FfmpegPlanes> planes = ffmpegPlanes(t.frame, 1);
      ASSERT_TRUE(planes.has_value());
      const float want = reference.detect(*planes);
      Result<ImportedFrame> imported = (*importer)->import(t.frame);
      ASSERT_TRUE(imported.ok()) << imported.error().message;
      ASSERT_TRUE(stage->beginFrame(w, h).ok());
      ASSERT_TRUE(stage->poison(test::kPoison).ok());
      BlockDetectPlane plane;
      plane.texture = imported->planes[0], plane.width = w, plane.height = h;
      Status ran = stage->runPlane(plane);
      ASSERT_TRUE(ran.ok()) << ran.error().message;
      Result<std::vector<float>> figures = stage->readPlaneFigures(config);
      ASSERT_TRUE(figures.ok()) << figures.error().message;
      EXPECT_EQ(bitsOf(meanOfPlanes(*figures)), bitsOf(want)) << w << "x" << h;
    }
  }
}

// Formats ffmpeg's filter does not take are not counted (the host's Detectors leave them too).
TEST(BlockDetect, BayerAndCompressedAreNotCounted) {
  GpuBlockDetect gpu(test::glContext(), withPlanes(1));
  for (PixelFormat format : allPixelFormats()) {
    const PixelFormatInfo& info = pixelFormatInfo(format);
    if (info.colour != ColourFamily::kBayer && info.packing != Packing::kCompressed &&
        info.bit_depth == 8)
      continue;
    SCOPED_TRACE(formatName(format));
    ASSERT_TRUE(gpu.configureFor(format, false).ok());
    Frame frame;
    frame.format = format, frame.width = 64, frame.height = 48;
    EXPECT_FALSE(gpu.counts(frame.format));
  }
}

// The shader's quotient (common/exact_quotient.glsl) against float(d) / float(t) on the host,
// every d in 0..255 and t in 1..2047 in one dispatch.
constexpr const char* kQuotientShader =
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) writeonly buffer Out { uint quotients[]; };\n"
    "#include \"common/exact_quotient.glsl\"\n"
    "void main() {\n"
    "  uint d = gl_GlobalInvocationID.x, t = gl_GlobalInvocationID.y + 1u;\n"
    "  quotients[(t - 1u) * 256u + d] = floatBitsToUint(exactQuotient(d, t));\n"
    "}\n";

TEST(BlockDetect, QuotientIsTheHostsFloatDivision) {
  test::glContext();
  std::vector<EmbeddedFile> files{EmbeddedFile{"quotient_test.comp", kQuotientShader}};
  files.insert(files.end(), builtinShaders().begin(), builtinShaders().end());
  Result<GlProgram> program = ShaderLibrary(files).compute("quotient_test.comp");
  ASSERT_TRUE(program.ok()) << program.error().message;
  constexpr uint32_t kMaxT = 2047;
  const size_t words = 256 * size_t(kMaxT);
  Result<GlBuffer> out = makeStorageBuffer(words, "quotients");
  ASSERT_TRUE(out.ok()) << out.error().message;
  ASSERT_TRUE(fillBuffer(out->get(), words, test::kPoison, "quotients").ok());
  glUseProgram(program->get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out->get());
  glDispatchCompute(256 / 64, kMaxT, 1);
  glMemoryBarrier(kStorageWrittenBarrier);
  const std::vector<uint32_t> got = test::readBuffer(out->get(), words);
  ASSERT_EQ(got.size(), words);
  int wrong = 0;
  for (uint32_t t = 1; t <= kMaxT; ++t)
    for (uint32_t d = 0; d < 256; ++d) {
      const uint32_t want = std::bit_cast<uint32_t>(float(d) / float(t));
      if (got[(t - 1) * 256 + d] != want && ++wrong <= 5)
        ADD_FAILURE() << d << " / " << t << ": GPU bits " << got[(t - 1) * 256 + d] << ", host "
                      << want;
    }
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace esf::block_detect_test
