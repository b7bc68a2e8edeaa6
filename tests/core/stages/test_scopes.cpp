// The scopes (GPU stage and the CPU executor's kernel) against their plain reference, and the
// reference against hand examples and invariants from other code paths: the waveform summed
// over its columns is the L histogram, each parade plane the R, G or B histogram, and a YUV
// frame's vectorscope the chroma samples as the test reads them from the planes itself.
#include <gtest/gtest.h>

#include <cmath>

#include "core/cpu/cpu_scopes.hpp"
#include "core/image/gpu_image.hpp"
#include "core/stages/histogram_reference.hpp"
#include "core/stages/scopes.hpp"
#include "core/stages/scopes_reference.hpp"
#include "tests/core/stages/stage_test_images.hpp"
#include "tests/support/gl_test_context.hpp"
#include "tests/support/random_frame.hpp"

namespace esf {
namespace {

using test::Content;

ScopeOptions allScopes(int columns = 0) {
  ScopeOptions s;
  s.waveform = s.parade = s.vectorscope = true;
  s.columns = columns;
  return s;
}

// The reference's counts of `image` as the pipeline puts them together.
ScopeCounts referenceCounts(const RgbaImage& image, const RgbaImage* luma, const ScopeOptions& s) {
  ScopeCounts out;
  out.columns = scopeColumns(s, image.width);
  if (s.waveform) out.waveform = waveformReference(image, luma, out.columns);
  if (s.parade) out.parade = paradeReference(image, out.columns);
  if (s.vectorscope) {
    out.vectorscope = vectorscopeRgbReference(image);
    out.vectorscope_samples = uint64_t(image.width) * uint64_t(image.height);
  }
  return out;
}

uint64_t total(const std::vector<uint32_t>& counts, size_t first = 0, size_t n = SIZE_MAX) {
  uint64_t sum = 0;
  for (size_t i = first; i < counts.size() && i - first < n; ++i) sum += counts[i];
  return sum;
}

TEST(ScopesReference, HandExample) {
  // 3x1, 2 columns: pixels 0 and 1 in column 0 (0 * 2 / 3, 2 / 3), pixel 2 in column 1 (4 / 3).
  RgbaImage image(3, 1);
  const uint8_t pixels[3][4] = {{0, 0, 0, 255}, {255, 255, 255, 255}, {255, 0, 0, 255}};
  for (int x = 0; x < 3; ++x)
    for (int c = 0; c < 4; ++c) image.at(x, 0)[c] = pixels[x][c];
  const std::vector<uint32_t> w = waveformReference(image, nullptr, 2);
  // L of pure red: (13933 * 255 + 32768) >> 16 = 54.
  EXPECT_EQ(w[0 * 256 + 0], 1u);
  EXPECT_EQ(w[0 * 256 + 255], 1u);
  EXPECT_EQ(w[1 * 256 + 54], 1u);
  EXPECT_EQ(total(w), 3u);
  const std::vector<uint32_t> p = paradeReference(image, 2);
  EXPECT_EQ(p[(0 * 2 + 0) * 256 + 255], 1u);  // R of column 0: white's
  EXPECT_EQ(p[(0 * 2 + 1) * 256 + 255], 1u);  // R of column 1: red's
  EXPECT_EQ(p[(1 * 2 + 1) * 256 + 0], 1u);    // G of column 1: red's
  EXPECT_EQ(p[(2 * 2 + 0) * 256 + 0], 1u);    // B of column 0: black's
  EXPECT_EQ(total(p), 9u);
  const std::vector<uint32_t> v = vectorscopeRgbReference(image);
  EXPECT_EQ(v[128 * 256 + 128], 2u);  // black and white: no chroma
  // Red in BT.709 limited range: Cb = 128 - 0.1146 * 224 = 102.3, Cr = 128 + 112 = 240.
  EXPECT_EQ(v[240 * 256 + 102], 1u);
}

TEST(ScopesReference, ColumnsDefaultToTheWidthUpTo512) {
  EXPECT_EQ(scopeColumns(ScopeOptions{}, 1), 1);
  EXPECT_EQ(scopeColumns(ScopeOptions{}, 300), 300);
  EXPECT_EQ(scopeColumns(ScopeOptions{}, 1920), 512);
  EXPECT_EQ(scopeColumns(allScopes(64), 1920), 64);
  EXPECT_EQ(scopeColumns(allScopes(4096), 100), 100);  // never more than the width
}

// The fixed-point matrix against BT.709's limited-range definition in floating point: within
// rounding (the Cb B and Cr G weights absorb the rounding of the others), grey exactly 128.
TEST(ScopesReference, ChromaMatrixIsBt709LimitedRange) {
  const double kr = 0.2126, kb = 0.0722, kg = 1 - kr - kb;
  int worst = 0;
  for (int r = 0; r < 256; r += 3) {
    for (int g = 0; g < 256; g += 5) {
      for (int b = 0; b < 256; b += 7) {
        const double y = kr * r + kg * g + kb * b;
        const double cb = 128 + 224.0 / 255 * (b - y) / (2 * (1 - kb));
        const double cr = 128 + 224.0 / 255 * (r - y) / (2 * (1 - kr));
        worst = std::max(worst, std::abs(int(scopeCb(r, g, b)) - int(std::lround(cb))));
        worst = std::max(worst, std::abs(int(scopeCr(r, g, b)) - int(std::lround(cr))));
        ASSERT_GE(scopeCb(r, g, b), 16u);
        ASSERT_LE(scopeCb(r, g, b), 240u);
        ASSERT_GE(scopeCr(r, g, b), 16u);
        ASSERT_LE(scopeCr(r, g, b), 240u);
      }
    }
  }
  EXPECT_LE(worst, 1);
  for (int v = 0; v < 256; ++v) {
    EXPECT_EQ(scopeCb(v, v, v), 128u);
    EXPECT_EQ(scopeCr(v, v, v), 128u);
  }
}

// Sums and the histograms of another code path (histogramReference).
void checkInvariants(const RgbaImage& image, const ScopeCounts& s) {
  const uint64_t pixels = uint64_t(image.width) * uint64_t(image.height);
  const size_t columns = size_t(s.columns);
  const std::vector<uint32_t> hist = histogramReference(image, 256, "rgbl", LumaWeights::kBt709);
  if (!s.waveform.empty()) {
    EXPECT_EQ(total(s.waveform), pixels);
    for (size_t level = 0; level < 256; ++level) {
      uint64_t sum = 0;
      for (size_t c = 0; c < columns; ++c) sum += s.waveform[c * 256 + level];
      ASSERT_EQ(sum, hist[level * 4 + 3]) << "L level " << level;
    }
  }
  if (!s.parade.empty()) {
    for (size_t ch = 0; ch < 3; ++ch) {
      for (size_t level = 0; level < 256; ++level) {
        uint64_t sum = 0;
        for (size_t c = 0; c < columns; ++c) sum += s.parade[(ch * columns + c) * 256 + level];
        ASSERT_EQ(sum, hist[level * 4 + ch]) << "channel " << ch << " level " << level;
      }
    }
  }
  if (!s.vectorscope.empty()) {
    EXPECT_EQ(total(s.vectorscope), pixels);
    EXPECT_EQ(s.vectorscope_samples, pixels);
  }
}

void checkImage(Scopes& stage, CpuScopes& cpu, RowPool& pool, const RgbaImage& image,
                const RgbaImage* luma, const ScopeOptions& s) {
  SCOPED_TRACE(testing::Message() << image.width << "x" << image.height << " columns " << s.columns
                                  << " w" << s.waveform << " p" << s.parade << " v" << s.vectorscope
                                  << (luma ? " luma image" : ""));
  const ScopeCounts want = referenceCounts(image, luma, s);
  if (!luma) checkInvariants(image, want);
  ScopeCounts got_cpu;
  cpu.count(image, luma, s, want.columns, true, pool, got_cpu);
  EXPECT_EQ(got_cpu, want) << "executor";
  ASSERT_TRUE(stage.poison(test::kPoison).ok());
  Result<GpuImage> gpu_image = GpuImage::fromImage(image);
  ASSERT_TRUE(gpu_image.ok()) << gpu_image.error().message;
  std::optional<GpuImage> gpu_luma;
  if (luma) {
    Result<GpuImage> made = GpuImage::fromImage(*luma);
    ASSERT_TRUE(made.ok());
    gpu_luma.emplace(std::move(made.value()));
  }
  Status ran = stage.run(*gpu_image, luma ? &*gpu_luma : nullptr, want.columns);
  ASSERT_TRUE(ran.ok()) << ran.error().message;
  Result<ScopeCounts> got = stage.read();
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(got.value(), want) << "gles";
}

TEST(Scopes, MatchReferenceOnEverySizeContentAndColumnCount) {
  GlContext& gl = test::glContext();
  RowPool pool(3);
  CpuScopes cpu;
  const ScopeOptions combinations[] = {allScopes(),
                                       {true, false, false, 0},
                                       {false, true, false, 0},
                                       {false, false, true, 0},
                                       {true, true, false, 0}};
  for (ScopeOptions combination : combinations) {
    Result<Scopes> stage =
        Scopes::create(gl, ScopesParams::defaultsFor(gl, combination), combination);
    ASSERT_TRUE(stage.ok()) << stage.error().message;
    for (test::Size size : {test::Size{1, 1}, test::Size{3, 7}, test::Size{257, 3},
                            test::Size{127, 129}, test::Size{1, 257}}) {
      for (Content content : test::kAllContents) {
        const RgbaImage image = test::makeImage(size.w, size.h, content, 7);
        for (int columns : {0, 1, 5, 64, 512, 4096}) {
          ScopeOptions s = combination;
          s.columns = columns;
          checkImage(*stage, cpu, pool, image, nullptr, s);
        }
      }
    }
  }
  ScopeOptions s = allScopes();
  Result<Scopes> stage = Scopes::create(gl, ScopesParams::defaultsFor(gl, s), s);
  ASSERT_TRUE(stage.ok()) << stage.error().message;
  checkImage(*stage, cpu, pool, test::makeImage(1920, 1080, Content::kRandom, 3), nullptr, s);
  checkImage(*stage, cpu, pool, test::makeImage(1920, 1080, Content::kFlat128, 3), nullptr, s);
}

// The waveform's L from a luma image (the source's Y lane): its red channel, not BT.709.
TEST(Scopes, WaveformReadsTheLumaImage) {
  GlContext& gl = test::glContext();
  RowPool pool(2);
  CpuScopes cpu;
  const ScopeOptions s = allScopes();
  Result<Scopes> stage = Scopes::create(gl, ScopesParams::defaultsFor(gl, s), s);
  ASSERT_TRUE(stage.ok()) << stage.error().message;
  for (test::Size size : {test::Size{1, 1}, test::Size{257, 3}, test::Size{127, 129}}) {
    const RgbaImage image = test::makeImage(size.w, size.h, Content::kRandom, 11);
    const RgbaImage luma = test::makeImage(size.w, size.h, Content::kRandom, 12);
    checkImage(*stage, cpu, pool, image, &luma, s);
    const std::vector<uint32_t> w = waveformReference(image, &luma, scopeColumns(s, size.w));
    std::vector<uint32_t> by_hand(w.size(), 0);
    for (int y = 0; y < size.h; ++y)
      for (int x = 0; x < size.w; ++x)
        ++by_hand[size_t(int64_t(x) * scopeColumns(s, size.w) / size.w) * 256 + luma.at(x, y)[0]];
    EXPECT_EQ(w, by_hand);
  }
}

// The smallest tile and a tall workgroup: still exact (the shared-memory layout's edges).
TEST(Scopes, OtherParametersMatchReference) {
  GlContext& gl = test::glContext();
  RowPool pool(1);
  CpuScopes cpu;
  const ScopeOptions s = allScopes();
  for (int tile : {1, 2, 4}) {
    ScopesParams p = ScopesParams::defaultsFor(gl, s);
    p.tile_columns = tile;
    p.workgroup_rows = 8;
    p.rows_per_workgroup = 16;
    Result<Scopes> stage = Scopes::create(gl, p, s);
    ASSERT_TRUE(stage.ok()) << stage.error().message;
    for (int columns : {0, 3, 100})
      checkImage(*stage, cpu, pool, test::makeImage(203, 41, Content::kRandom, 5), nullptr,
                 allScopes(columns));
  }
}

TEST(Scopes, ParametersOutsideTheirRangeAreRefused) {
  GlContext& gl = test::glContext();
  const ScopeOptions s = allScopes();
  ScopesParams p = ScopesParams::defaultsFor(gl, s);
  p.tile_columns = 3;
  Result<Scopes> odd = Scopes::create(gl, p, s);
  ASSERT_FALSE(odd.ok());
  EXPECT_NE(odd.error().message.find("scopes: tile_columns"), std::string::npos);
  p = ScopesParams::defaultsFor(gl, s);
  p.rows_per_workgroup = p.workgroup_rows + 1;
  EXPECT_FALSE(Scopes::create(gl, p, s).ok());
  EXPECT_FALSE(Scopes::create(gl, ScopesParams::defaultsFor(gl, s), ScopeOptions{}).ok());
  Result<Scopes> stage = Scopes::create(gl, ScopesParams::defaultsFor(gl, s), s);
  ASSERT_TRUE(stage.ok());
  Result<GpuImage> image = GpuImage::fromImage(test::makeImage(8, 8, Content::kRandom));
  ASSERT_TRUE(image.ok());
  EXPECT_FALSE(stage->run(*image, nullptr, 9).ok());  // more columns than pixels
  EXPECT_FALSE(stage->run(*image, nullptr, 0).ok());
}

// A YUV frame's vectorscope: its chroma samples as this test reads them from the planes' known
// layouts (not through the pixel-format table the reference uses).
std::vector<uint32_t> chromaByHand(const test::TestFrame& t, uint64_t& samples) {
  const Frame& f = t.frame;
  std::vector<uint32_t> counts(65536, 0);
  int cw = (f.width + 1) / 2, ch = (f.height + 1) / 2;
  auto add = [&](uint8_t cb, uint8_t cr) { ++counts[size_t(cr) * 256 + cb]; };
  if (f.format == PixelFormat::kNV12) {
    for (int y = 0; y < ch; ++y)
      for (int x = 0; x < cw; ++x) {
        const uint8_t* p = f.planes[1].data + size_t(y) * size_t(f.planes[1].stride) + 2 * x;
        add(p[0], p[1]);
      }
  } else if (f.format == PixelFormat::kYU12) {
    for (int y = 0; y < ch; ++y)
      for (int x = 0; x < cw; ++x)
        add(f.planes[1].data[size_t(y) * size_t(f.planes[1].stride) + size_t(x)],
            f.planes[2].data[size_t(y) * size_t(f.planes[2].stride) + size_t(x)]);
  } else {  // YUYV: Y0 Cb Y1 Cr, every row
    ch = f.height;
    for (int y = 0; y < ch; ++y)
      for (int x = 0; x < cw; ++x) {
        const uint8_t* p = f.planes[0].data + size_t(y) * size_t(f.planes[0].stride) + 4 * x;
        add(p[1], p[3]);
      }
  }
  samples = uint64_t(cw) * uint64_t(ch);
  return counts;
}

TEST(Scopes, YuvVectorscopeIsTheSourceChroma) {
  RowPool pool(3);
  CpuScopes cpu;
  for (PixelFormat format : {PixelFormat::kNV12, PixelFormat::kYU12, PixelFormat::kYUYV}) {
    for (auto [w, h] : test::importSizes(format)) {
      for (int pad : {0, 5}) {
        SCOPED_TRACE(testing::Message()
                     << formatName(format) << " " << w << "x" << h << " pad " << pad);
        const test::TestFrame t = test::randomFrame(format, w, h, pad, test::kColorimetries[0], 9);
        uint64_t want_samples = 0;
        const std::vector<uint32_t> want = chromaByHand(t, want_samples);
        EXPECT_EQ(total(want), want_samples);
        std::vector<uint32_t> reference;
        uint64_t samples = 0;
        ASSERT_TRUE(vectorscopeSourceReference(t.frame, reference, samples));
        EXPECT_EQ(reference, want);
        EXPECT_EQ(samples, want_samples);
        ScopeCounts counted;
        ASSERT_TRUE(cpu.countSource(t.frame, pool, counted));
        EXPECT_EQ(counted.vectorscope, want);
        EXPECT_EQ(counted.vectorscope_samples, want_samples);
      }
    }
  }
  // No chroma: RGB frames are refused, and the counts stay as they were.
  const test::TestFrame rgb =
      test::randomFrame(PixelFormat::kRGB24, 4, 4, 0, test::kColorimetries[0], 1);
  ScopeCounts untouched;
  EXPECT_FALSE(cpu.countSource(rgb.frame, pool, untouched));
  EXPECT_TRUE(untouched.vectorscope.empty());
}

}  // namespace
}  // namespace esf
