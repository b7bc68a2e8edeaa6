// The scope graphs (waveform, RGB parade, vectorscope): the GPU (scope.frag) and the CPU reference
// against pictures worked out by hand for frames of flat areas, against an independent raster
// written here from scope_layout.hpp's description (its own cell search by multiplication, the
// peak by brute force over every pixel, log2 by division, the font's glyph rows one bit at a
// time), and against each other at odd sizes. Targets are poisoned before each draw.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/outputs/bitmap_font.hpp"
#include "core/outputs/scope_renderer.hpp"
#include "tests/core/outputs/graph_test_util.hpp"

namespace esf::scope_graph_test {
namespace {

using test::countDiffs;

constexpr GraphOptions kPlain{GraphMode::kOverlay, false, false, GraphSource::kImage,
                              GraphScope::kWaveform};

GraphOptions styled(GraphScope scope, bool log, bool decor) {
  GraphOptions o = kPlain;
  o.scope = scope;
  o.log_scale = log;
  o.decorations = decor;
  return o;
}

void poison(GLuint texture) {
  GlFramebuffer fbo = makeFramebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, fbo.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  glClearColor(0xDE / 255.f, 0xAD / 255.f, 0xBE / 255.f, 0xEF / 255.f);
  glClear(GL_COLOR_BUFFER_BIT);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

Result<RgbaImage> renderOnGpu(const ScopeCounts& counts, int w, int h, const GraphOptions& options,
                              const GraphLabels& labels = {}, uint8_t alpha = 255) {
  Result<ScopeRenderer> r = ScopeRenderer::create(w, h, options, alpha);
  if (!r) return r.error();
  poison(r->texture());
  if (Status s = r->render(counts, labels); !s) return s.error();
  return r->read();
}

// The counts of a frame of flat areas, counted here by the definitions of scopes.hpp: an 8x4
// frame whose left half is RGB (200, 40, 40) and right half (40, 200, 120), 4 columns (two pixel
// columns each); L and the vectorscope's Cb/Cr given per half.
ScopeCounts twoHalves() {
  ScopeCounts s;
  s.columns = 4;
  s.waveform.assign(4 * 256, 0);
  s.parade.assign(3 * 4 * 256, 0);
  s.vectorscope.assign(256 * 256, 0);
  const int left[3] = {200, 40, 40}, right[3] = {40, 200, 120};
  for (int column = 0; column < 4; ++column) {
    const int* rgb = column < 2 ? left : right;
    s.waveform[size_t(column) * 256 + (column < 2 ? 80 : 150)] = 8;
    for (int c = 0; c < 3; ++c)
      s.parade[(size_t(c) * 4 + size_t(column)) * 256 + size_t(rgb[c])] = 8;
  }
  s.vectorscope[size_t(100) * 256 + 180] = 16;  // left: Cr 100, Cb 180
  s.vectorscope[size_t(220) * 256 + 20] = 16;   // right: Cr 220, Cb 20
  s.vectorscope_samples = 32;
  return s;
}

// The picture of twoHalves() worked out by hand, 64x64, no decorations: every pixel row r (from
// the bottom) shows levels 4r..4r+3 and pixel column x the scope column x / 16, so each lit
// block is one row and 32 columns at full brightness (count 8 = the peak, 8 * 1020 / 8 > 255).
RgbaImage handPicture(GraphScope scope) {
  RgbaImage img(64, 64);
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x) {
      uint8_t* p = img.at(x, y);
      std::fill(p, p + 3, 0);
      p[3] = 255;
    }
  auto lit = [&](int x0, int x1, int row, int channel) {
    for (int x = x0; x < x1; ++x) {
      uint8_t* p = img.at(x, 63 - row);
      for (int c = 0; c < 3; ++c)
        if (channel < 0 || c == channel) p[c] = 255;
    }
  };
  if (scope == GraphScope::kWaveform) {
    lit(0, 32, 80 / 4, -1);    // left half, level 80: row 20
    lit(32, 64, 150 / 4, -1);  // right half, level 150: row 37
  } else if (scope == GraphScope::kParade) {
    // Panels 0..20, 21..41, 42..63 (k * 64 / 3); panel widths 21, 21, 22: a panel's pixel px
    // shows column px * 4 / width: the left half is px < 11 (21 wide) or px < 11 (22 wide).
    const int edges[4] = {0, 21, 42, 64};
    const int left[3] = {200, 40, 40}, right[3] = {40, 200, 120};
    for (int k = 0; k < 3; ++k) {
      const int width = edges[k + 1] - edges[k];
      const int split = (2 * width + 3) / 4;  // first px with px * 4 / width >= 2
      lit(edges[k], edges[k] + split, left[k] / 4, k);
      lit(edges[k] + split, edges[k + 1], right[k] / 4, k);
    }
  } else {  // side 64: u shows Cb 4u..4u+3, v Cr 4v..4v+3
    lit(180 / 4, 180 / 4 + 1, 100 / 4, -1);
    lit(20 / 4, 20 / 4 + 1, 220 / 4, -1);
  }
  return img;
}

TEST(ScopeGraph, TwoFlatHalvesDrawnAsWorkedOutByHand) {
  test::glContext();
  const ScopeCounts counts = twoHalves();
  for (GraphScope scope : {GraphScope::kWaveform, GraphScope::kParade, GraphScope::kVectorscope}) {
    SCOPED_TRACE(int(scope));
    const RgbaImage want = handPicture(scope);
    Result<RgbaImage> cpu = renderScopeReference(counts, 64, 64, styled(scope, false, false));
    ASSERT_TRUE(cpu) << cpu.error().message;
    EXPECT_EQ(countDiffs(want, cpu.value(), "CPU reference"), 0);
    Result<RgbaImage> gpu = renderOnGpu(counts, 64, 64, styled(scope, false, false));
    ASSERT_TRUE(gpu) << gpu.error().message;
    EXPECT_EQ(countDiffs(want, gpu.value(), "GPU"), 0);
  }
}

// --- the independent raster -------------------------------------------------------------------

// The cells pixel i of n shows along an axis of `cells`: from the largest f with f * n <= i *
// cells to the largest e with e * n <= (i + 1) * cells, at least one.
std::pair<int, int> cellsOf(int i, int n, int cells) {
  int first = 0, end = 0;
  while (int64_t(first + 1) * n <= int64_t(i) * cells) ++first;
  while (int64_t(end + 1) * n <= int64_t(i + 1) * cells) ++end;
  return {first, std::max(end, first + 1)};
}

// What a pixel below the strip shows: its panel (-1 outside the vectorscope's square) and count.
struct Shown {
  int panel = -1;
  uint64_t count = 0;
  int u = 0, v = 0, side = 0;  // the vectorscope's square coordinates
};

Shown shownAt(const ScopeCounts& s, GraphScope scope, int x, int row, int width, int rows) {
  Shown out;
  if (scope == GraphScope::kVectorscope) {
    out.side = std::min(width, rows);
    out.u = x - (width - out.side) / 2;
    out.v = row;
    if (out.u < 0 || out.u >= out.side || out.v >= out.side) return out;
    out.panel = 0;
    const auto [cb0, cb1] = cellsOf(out.u, out.side, 256);
    const auto [cr0, cr1] = cellsOf(out.v, out.side, 256);
    for (int cr = cr0; cr < cr1; ++cr)
      for (int cb = cb0; cb < cb1; ++cb) out.count += s.vectorscope[size_t(cr * 256 + cb)];
    return out;
  }
  int left = 0, right = width;
  out.panel = 0;
  if (scope == GraphScope::kParade)
    for (int k = 0; k < 3; ++k)
      if (k * width / 3 <= x && x < (k + 1) * width / 3) {
        left = k * width / 3;
        right = (k + 1) * width / 3;
        out.panel = k;
      }
  const std::vector<uint32_t>& counts = scope == GraphScope::kParade ? s.parade : s.waveform;
  const auto [c0, c1] = cellsOf(x - left, right - left, s.columns);
  const auto [l0, l1] = cellsOf(row, rows, 256);
  for (int c = c0; c < c1; ++c)
    for (int l = l0; l < l1; ++l)
      out.count += counts[size_t((out.panel * s.columns + c) * 256 + l)];
  return out;
}

RgbaImage independentScope(const ScopeCounts& s, int width, int height, const GraphOptions& o,
                           const std::string& caption, uint8_t alpha) {
  const int strip = o.decorations && !caption.empty() && height >= 36 ? 9 : 0;  // text scale 1
  const int rows = height - strip;
  uint64_t peak = 0;
  for (int row = 0; row < rows; ++row)
    for (int x = 0; x < width; ++x)
      peak = std::max(peak, shownAt(s, o.scope, x, row, width, rows).count);
  // 75% bars' targets worked out by hand from BT.709 (Cb, Cr; the bar's colour).
  const int targets[6][5] = {{44, 136, 191, 191, 0}, {147, 44, 0, 191, 191},
                             {63, 52, 0, 191, 0},    {193, 204, 191, 0, 191},
                             {109, 212, 191, 0, 0},  {212, 120, 0, 0, 191}};
  RgbaImage img(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      std::vector<uint8_t> colour = {0, 0, 0, alpha};
      const int row = height - 1 - y;
      if (y < strip) {
        const int glyph = (x - 2) / 6, column = (x - 2) % 6, glyph_row = y - 1;
        if (x >= 2 && glyph_row >= 0 && glyph_row < 7 && column < 5 && x - 2 < 512 &&
            size_t(glyph) < caption.size() &&
            (glyphRows(caption[size_t(glyph)])[size_t(glyph_row)] >> (4 - column)) & 1)
          colour = {255, 255, 255, 255};
      } else {
        const Shown shown = shownAt(s, o.scope, x, row, width, rows);
        if (shown.panel < 0) {
          std::copy(colour.begin(), colour.end(), img.at(x, y));
          continue;
        }
        uint64_t b = 0;
        if (shown.count > 0) {
          if (o.log_scale) {
            b = 255 * test::log256(shown.count + 1) / test::log256(peak + 1);
          } else {
            const float level = float(shown.count) * (float(1020) / float(peak));
            b = level >= 255 ? 255 : uint64_t(level);
          }
          b = std::max<uint64_t>(b, 48);
        }
        int target = -1;
        if (o.scope == GraphScope::kVectorscope && o.decorations) {
          const int box = std::max(2, shown.side / 64);
          for (int k = 5; k >= 0; --k)
            if (std::max(std::abs(shown.u - targets[k][0] * shown.side / 256),
                         std::abs(shown.v - targets[k][1] * shown.side / 256)) == box)
              target = k;
        }
        const bool grid =
            o.scope == GraphScope::kVectorscope
                ? shown.u == shown.side / 2 || shown.v == shown.side / 2
                : row == 16 * rows / 256 || row == 128 * rows / 256 || row == 235 * rows / 256;
        if (target >= 0) {
          colour = {uint8_t(targets[target][2]), uint8_t(targets[target][3]),
                    uint8_t(targets[target][4]), 255};
        } else if (b > 0) {
          colour = {uint8_t(b), uint8_t(b), uint8_t(b), 255};
          if (o.scope == GraphScope::kParade)
            for (int c = 0; c < 3; ++c)
              if (c != shown.panel) colour[size_t(c)] = 0;
        } else if (o.decorations && grid) {
          colour = {72, 72, 72, 255};
        }
      }
      std::copy(colour.begin(), colour.end(), img.at(x, y));
    }
  return img;
}

// Counts with empty cells and a wide range, columns that do not divide the graph's width.
ScopeCounts patternCounts(int columns, std::mt19937& rng) {
  ScopeCounts s;
  s.columns = columns;
  auto fill = [&](std::vector<uint32_t>& v, size_t n) {
    v.resize(n);
    for (uint32_t& c : v) c = rng() % 3 == 0 ? uint32_t(rng() % 5000) : 0;
  };
  fill(s.waveform, size_t(columns) * 256);
  fill(s.parade, size_t(columns) * 3 * 256);
  fill(s.vectorscope, 256 * 256);
  return s;
}

TEST(ScopeGraph, IndependentRasterMatchesTheTwoHalvesByHand) {
  const ScopeCounts counts = twoHalves();
  for (GraphScope scope : {GraphScope::kWaveform, GraphScope::kParade, GraphScope::kVectorscope})
    EXPECT_EQ(countDiffs(handPicture(scope),
                         independentScope(counts, 64, 64, styled(scope, false, false), "", 255),
                         "independent raster " + std::to_string(int(scope))),
              0);
}

TEST(ScopeGraph, GpuAndCpuReferenceDrawTheIndependentRaster) {
  test::glContext();
  std::mt19937 rng(52);
  const std::string caption = "L MEAN 118.3 P10 40 P50 120 P90 200";
  GraphLabels labels;
  labels.caption = caption;
  for (int columns : {7, 300}) {  // fewer and more columns than the graph's width
    const ScopeCounts counts = patternCounts(columns, rng);
    for (GraphScope scope : {GraphScope::kWaveform, GraphScope::kParade, GraphScope::kVectorscope})
      for (bool log : {false, true})
        for (bool decor : {false, true}) {
          SCOPED_TRACE("scope " + std::to_string(int(scope)) + " columns " +
                       std::to_string(columns) + (log ? " log" : " linear") +
                       (decor ? " decor" : ""));
          const GraphOptions o = styled(scope, log, decor);
          const RgbaImage want = independentScope(counts, 131, 80, o, caption, 160);
          Result<RgbaImage> cpu = renderScopeReference(counts, 131, 80, o, labels, 160);
          ASSERT_TRUE(cpu) << cpu.error().message;
          EXPECT_EQ(countDiffs(want, cpu.value(), "CPU reference"), 0);
          Result<RgbaImage> gpu = renderOnGpu(counts, 131, 80, o, labels, 160);
          ASSERT_TRUE(gpu) << gpu.error().message;
          EXPECT_EQ(countDiffs(want, gpu.value(), "GPU"), 0);
        }
  }
}

TEST(ScopeGraph, GpuMatchesCpuReferenceAtOddSizes) {
  test::glContext();
  std::mt19937 rng(2052);
  struct Case {
    int columns, w, h;
  };
  for (const Case& c : {Case{1, 3, 16}, Case{512, 517, 300}, Case{4096, 97, 601},
                        Case{33, 1000, 37}, Case{256, 257, 513}, Case{16, 1, 1}}) {
    const ScopeCounts counts = patternCounts(c.columns, rng);
    GraphLabels labels;
    labels.caption = "OK L MEAN " + std::to_string(rng() % 256);
    for (GraphScope scope : {GraphScope::kWaveform, GraphScope::kParade, GraphScope::kVectorscope})
      for (bool log : {false, true}) {
        SCOPED_TRACE(std::to_string(c.columns) + " columns " + std::to_string(c.w) + "x" +
                     std::to_string(c.h) + " scope " + std::to_string(int(scope)) +
                     (log ? " log" : " linear"));
        const GraphOptions o = styled(scope, log, true);
        if (scope == GraphScope::kParade && c.w < 3) continue;
        Result<RgbaImage> cpu = renderScopeReference(counts, c.w, c.h, o, labels, 200);
        Result<RgbaImage> gpu = renderOnGpu(counts, c.w, c.h, o, labels, 200);
        // A vectorscope of 3 or 1 pixels square sums too many cells a pixel: both refuse it alike.
        const bool too_small = scope == GraphScope::kVectorscope && c.w <= 3;
        ASSERT_EQ(bool(cpu), !too_small) << (cpu ? "drawn" : cpu.error().message);
        ASSERT_EQ(bool(gpu), !too_small) << (gpu ? "drawn" : gpu.error().message);
        if (too_small) {
          EXPECT_EQ(gpu.error().message, cpu.error().message);
          continue;
        }
        EXPECT_EQ(countDiffs(cpu.value(), gpu.value(), "GPU against the CPU reference"), 0);
      }
  }
}

TEST(ScopeGraph, TargetsOfTheColourBarsByHand) {
  // 128 + 224 (B - Y) / 1.8556 and 128 + 224 (R - Y) / 1.5748 at 75%, worked out by hand:
  // yellow Y = 0.75 * 0.9278: Cb 128 - 84.0 = 44, Cr 128 + 7.70 = 135.7.
  const int want[6][2] = {{44, 136}, {147, 44}, {63, 52}, {193, 204}, {109, 212}, {212, 120}};
  for (size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(scopeTargets()[k].cb, want[k][0]) << k;
    EXPECT_EQ(scopeTargets()[k].cr, want[k][1]) << k;
  }
  EXPECT_EQ(scopeTargets()[0].colour, (std::array<uint8_t, 4>{191, 191, 0, 255}));
  EXPECT_EQ(scopeTargets()[5].colour, (std::array<uint8_t, 4>{0, 0, 191, 255}));
}

TEST(ScopeGraph, RefusesWhatItCannotDraw) {
  ScopeCounts only_waveform;
  only_waveform.columns = 2;
  only_waveform.waveform.assign(512, 1);
  Result<RgbaImage> missing =
      renderScopeReference(only_waveform, 64, 64, styled(GraphScope::kVectorscope, false, true));
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no vectorscope"), std::string::npos)
      << missing.error().message;
  only_waveform.columns = 3;  // 512 counts are not 3 columns
  EXPECT_FALSE(
      renderScopeReference(only_waveform, 64, 64, styled(GraphScope::kWaveform, false, true)));
  // 3x3 pixels: one sums up to 2 x 86 cells of the waveform, 86 x 86 of the vectorscope (> 4096).
  ScopeCounts both = only_waveform;
  both.columns = 2;
  both.vectorscope.assign(256 * 256, 1);
  EXPECT_TRUE(renderScopeReference(both, 3, 3, styled(GraphScope::kWaveform, false, false)));
  Result<RgbaImage> small =
      renderScopeReference(both, 3, 3, styled(GraphScope::kVectorscope, false, false));
  ASSERT_FALSE(small);
  EXPECT_NE(small.error().message.find("too few"), std::string::npos) << small.error().message;
  EXPECT_TRUE(renderScopeReference(both, 4, 4, styled(GraphScope::kVectorscope, false, false)));
  test::glContext();
  Result<ScopeRenderer> renderer =
      ScopeRenderer::create(3, 3, styled(GraphScope::kVectorscope, false, false));
  ASSERT_TRUE(renderer) << renderer.error().message;
  EXPECT_FALSE(renderer->render(both));
  EXPECT_FALSE(ScopeRenderer::create(2, 64, styled(GraphScope::kParade, false, true)));
  EXPECT_TRUE(ScopeRenderer::create(3, 64, styled(GraphScope::kParade, false, true)));
  EXPECT_FALSE(ScopeRenderer::create(64, 64, styled(GraphScope::kNone, false, true)));
}

}  // namespace
}  // namespace esf::scope_graph_test
