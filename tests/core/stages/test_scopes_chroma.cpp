// A YUV frame's vectorscope on the GPU (Scopes for ScopesInput::kChromaPlanes) from the plane
// textures the import read, against the host reference (vectorscopeSourceReference) and against
// the chroma samples as this test reads them from each format's known byte layout (not through
// the pixel-format table the reference and the import use): every YUV layout, odd sizes, padded
// strides, seeded noise and flat frames.
#include <gtest/gtest.h>

#include <cstring>

#include "core/import/frame_import.hpp"
#include "core/stages/scopes.hpp"
#include "core/stages/scopes_reference.hpp"
#include "core/stats/signalstats.hpp"
#include "tests/support/gl_test_context.hpp"
#include "tests/support/random_frame.hpp"

namespace esf {
namespace {

// Where each format keeps sample (x, y)'s Cb and Cr: plane, bytes from the row's start at
// x_step * x + offset, rows of chroma at y, chroma at (w / hsub) x (h / vsub) rounded up.
struct ByteLayout {
  PixelFormat format;
  int cb_plane, cr_plane;
  int x_step, cb_offset, cr_offset;
  int hsub, vsub;
};
constexpr ByteLayout kLayouts[] = {
    {PixelFormat::kNV12, 1, 1, 2, 0, 1, 2, 2},    {PixelFormat::kNV21, 1, 1, 2, 1, 0, 2, 2},
    {PixelFormat::kYU12, 1, 2, 1, 0, 0, 2, 2},    {PixelFormat::kYUYV, 0, 0, 4, 1, 3, 2, 1},
    {PixelFormat::kUYVY, 0, 0, 4, 0, 2, 2, 1},    {PixelFormat::kYUV422P, 1, 2, 1, 0, 0, 2, 1},
    {PixelFormat::kYUV444P, 1, 2, 1, 0, 0, 1, 1},
};

std::vector<uint32_t> chromaByHand(const Frame& f, const ByteLayout& l, uint64_t& samples) {
  std::vector<uint32_t> counts(65536, 0);
  const int cw = (f.width + l.hsub - 1) / l.hsub, ch = (f.height + l.vsub - 1) / l.vsub;
  for (int y = 0; y < ch; ++y)
    for (int x = 0; x < cw; ++x) {
      const FramePlane& pb = f.planes[size_t(l.cb_plane)];
      const FramePlane& pr = f.planes[size_t(l.cr_plane)];
      const uint8_t cb =
          pb.data[size_t(y) * size_t(pb.stride) + size_t(l.x_step * x + l.cb_offset)];
      const uint8_t cr =
          pr.data[size_t(y) * size_t(pr.stride) + size_t(l.x_step * x + l.cr_offset)];
      ++counts[size_t(cr) * 256 + cb];
    }
  samples = uint64_t(cw) * uint64_t(ch);
  return counts;
}

// The GPU's counts of `frame`: imported, then counted from the import's plane textures.
ScopeCounts countOnGpu(FrameImporter& importer, Scopes& stage, const Frame& frame) {
  Result<ImportedFrame> imported = importer.import(frame);
  EXPECT_TRUE(imported.ok()) << imported.error().message;
  if (!imported) return {};
  const ChromaPlanes planes = chromaPlanesOf(*imported, chromaLayoutOf(frame.format));
  if (Status poisoned = stage.poison(test::kPoison); !poisoned)
    ADD_FAILURE() << poisoned.error().message;
  Status ran = stage.run(planes);
  EXPECT_TRUE(ran.ok()) << ran.error().message;
  Result<ScopeCounts> got = stage.read();
  EXPECT_TRUE(got.ok()) << got.error().message;
  return got ? got.value() : ScopeCounts{};
}

void fill(test::TestFrame& t, uint8_t value) {
  for (std::vector<uint8_t>& p : t.planes) std::memset(p.data(), value, p.size());
}

void checkFrame(FrameImporter& importer, Scopes& stage, const Frame& frame, const ByteLayout& l) {
  uint64_t want_samples = 0;
  const std::vector<uint32_t> want = chromaByHand(frame, l, want_samples);
  std::vector<uint32_t> reference;
  uint64_t reference_samples = 0;
  ASSERT_TRUE(vectorscopeSourceReference(frame, reference, reference_samples));
  ASSERT_EQ(reference, want);
  ASSERT_EQ(reference_samples, want_samples);
  const ScopeCounts got = countOnGpu(importer, stage, frame);
  EXPECT_TRUE(got.waveform.empty());
  EXPECT_TRUE(got.parade.empty());
  EXPECT_EQ(got.vectorscope_samples, want_samples);
  ASSERT_EQ(got.vectorscope.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(got.vectorscope[i], want[i]) << "cb " << i % 256 << " cr " << i / 256;
}

Scopes vectorscopeStage(const ScopesParams* params = nullptr) {
  GlContext& gl = test::glContext();
  ScopeOptions s;
  s.vectorscope = true;
  Result<Scopes> made = Scopes::create(gl, params ? *params : ScopesParams::defaultsFor(gl, s), s,
                                       ScopesInput::kChromaPlanes);
  EXPECT_TRUE(made.ok()) << made.error().message;
  return std::move(made.value());
}

TEST(ScopesChroma, EveryYuvLayoutMatchesTheReference) {
  Result<std::unique_ptr<FrameImporter>> importer = FrameImporter::create(test::glContext());
  ASSERT_TRUE(importer.ok()) << importer.error().message;
  Scopes stage = vectorscopeStage();
  for (const ByteLayout& l : kLayouts) {
    std::vector<std::pair<int, int>> sizes = test::importSizes(l.format);
    const bool odd_ok = allowsOddWidth(l.format);
    sizes.push_back({odd_ok ? 3 : 4, 257});
    for (auto [w, h] : sizes) {
      for (int pad : {0, 5}) {
        SCOPED_TRACE(testing::Message()
                     << formatName(l.format) << " " << w << "x" << h << " pad " << pad);
        test::TestFrame t = test::randomFrame(l.format, w, h, pad, test::kColorimetries[1], 17);
        checkFrame(**importer, stage, t.frame, l);
        fill(t, 77);  // flat: one bin holds every sample
        checkFrame(**importer, stage, t.frame, l);
      }
    }
  }
}

// A 1080p frame, noise and flat (one bin's runs down every column), and tiles other than the
// default: the workgroup's edges.
TEST(ScopesChroma, LargeFramesAndOtherTiles) {
  GlContext& gl = test::glContext();
  Result<std::unique_ptr<FrameImporter>> importer = FrameImporter::create(gl);
  ASSERT_TRUE(importer.ok()) << importer.error().message;
  Scopes stage = vectorscopeStage();
  for (const ByteLayout& l : {kLayouts[0], kLayouts[3]}) {
    SCOPED_TRACE(formatName(l.format));
    test::TestFrame t = test::randomFrame(l.format, 1920, 1080, 0, test::kColorimetries[2], 3);
    checkFrame(**importer, stage, t.frame, l);
    fill(t, 128);
    checkFrame(**importer, stage, t.frame, l);
  }
  ScopeOptions s;
  s.vectorscope = true;
  for (int tile : {1, 4}) {
    ScopesParams p = ScopesParams::defaultsFor(gl, s);
    p.tile_columns = tile;
    p.workgroup_rows = 8;
    p.rows_per_workgroup = 16;
    if (test::refusedForSpecMinimums(p.validate(gl.limits(), s),
                                     Scopes::create(gl, p, s, ScopesInput::kChromaPlanes)))
      continue;
    Scopes small = vectorscopeStage(&p);
    for (const ByteLayout& l : kLayouts) {
      SCOPED_TRACE(testing::Message() << formatName(l.format) << " tile " << tile);
      const test::TestFrame t = test::randomFrame(l.format, 204, 41, 3, test::kColorimetries[0], 5);
      checkFrame(**importer, small, t.frame, l);
    }
  }
}

TEST(ScopesChroma, RefusesWhatChromaPlanesDoNotHave) {
  GlContext& gl = test::glContext();
  ScopeOptions s;
  s.vectorscope = s.waveform = true;
  Result<Scopes> made =
      Scopes::create(gl, ScopesParams::defaultsFor(gl, s), s, ScopesInput::kChromaPlanes);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(made.error().message.find("scopes: chroma planes"), std::string::npos);
  Scopes stage = vectorscopeStage();
  EXPECT_FALSE(stage.run(ChromaPlanes{}).ok());  // no samples
  Result<GpuImage> image = GpuImage::create(8, 8);
  ASSERT_TRUE(image.ok());
  EXPECT_FALSE(stage.run(*image, nullptr, 8).ok());  // an image given to the chroma form
}

// signalstats' counts beside the vectorscope, over a run of frames (the differences against the
// previous one's chroma kept on the GPU; none on the first and after a change of size): the
// figures from them equal the host counter's (SignalstatsCounter, the reference).
TEST(ScopesChroma, SignalstatsCountsMatchTheHostCounter) {
  GlContext& gl = test::glContext();
  Result<std::unique_ptr<FrameImporter>> importer = FrameImporter::create(gl);
  ASSERT_TRUE(importer.ok()) << importer.error().message;
  ScopeOptions s;
  s.vectorscope = true;
  Result<Scopes> made = Scopes::create(gl, ScopesParams::defaultsFor(gl, s), s,
                                       ScopesInput::kChromaPlanes, /*signalstats=*/true);
  ASSERT_TRUE(made.ok()) << made.error().message;
  Scopes& stage = made.value();
  for (const ByteLayout& l : kLayouts) {
    SignalstatsCounter host;
    const bool odd_ok = allowsOddWidth(l.format);
    // The third size differs: no previous chroma there; the rest compare with the frame before.
    const std::pair<int, int> sizes[] = {{odd_ok ? 33 : 34, 17},  {odd_ok ? 33 : 34, 17},
                                         {odd_ok ? 257 : 258, 3}, {odd_ok ? 257 : 258, 3},
                                         {odd_ok ? 1 : 2, 1},     {odd_ok ? 3 : 4, 257},
                                         {odd_ok ? 3 : 4, 257},   {64, 48}};
    uint32_t seed = 40;
    for (auto [w, h] : sizes) {
      for (int content = 0; content < 3; ++content) {  // noise, flat in range, flat out of range
        SCOPED_TRACE(testing::Message()
                     << formatName(l.format) << " " << w << "x" << h << " content " << content);
        test::TestFrame t = test::randomFrame(l.format, w, h, 3, test::kColorimetries[0], ++seed);
        if (content) fill(t, content == 1 ? 100 : 250);
        const std::optional<SignalstatsFigures> want = host.count(t.frame);
        ASSERT_TRUE(want.has_value());
        const ScopeCounts counts = countOnGpu(**importer, stage, t.frame);
        Result<ChromaSignalstatsCounts> got = stage.readSignalstats();
        ASSERT_TRUE(got.ok()) << got.error().message;
        const SignalstatsFigures figures = signalstatsOfCounts(
            counts.vectorscope, counts.vectorscope_samples,
            got->has_previous ? got->cb_difference : 0, got->has_previous ? got->cr_difference : 0,
            got->out_of_range_pixels, uint64_t(w) * uint64_t(h));
        EXPECT_EQ(figures, *want);
        if (content == 2) {
          EXPECT_EQ(got->out_of_range_pixels, uint64_t(w) * uint64_t(h));
        }
      }
    }
  }
}

}  // namespace
}  // namespace esf
