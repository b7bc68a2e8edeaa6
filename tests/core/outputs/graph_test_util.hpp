#pragma once
// GPU inputs of the graph renderer for tests: SSBOs in the histogram and scale stages' layouts,
// and a poisoned target; the fixed scales and the pixel comparisons the graph suites share.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "core/outputs/graph_renderer.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf::test {

// The seed's colour table (histogram part 2), grey as 128: an oracle written from the seed's
// text, not graph_layout.cpp's table.
inline std::vector<uint8_t> seedColour(int mask) {
  static const uint8_t table[8][3] = {{0, 0, 0},   {255, 0, 0},   {0, 255, 0},   {255, 255, 0},
                                      {0, 0, 255}, {255, 0, 255}, {0, 255, 255}, {128, 128, 128}};
  if (mask >= 8) return {255, 255, 255, 255};
  return {table[mask][0], table[mask][1], table[mask][2], 255};
}

// Mitchell's log2 in 1/256 steps, by division: exponent e with 2^e <= v, plus the mantissa's
// share of 2^e in 256ths, rounded down (0 for 0 and 1). The log graphs' oracle, written apart
// from graph_layout.cpp's logQ8.
inline uint64_t log256(uint64_t v) {
  if (v <= 1) return 0;
  uint64_t e = 0;
  while ((uint64_t(2) << e) <= v) ++e;
  return e * 256 + (v - (uint64_t(1) << e)) * 256 / (uint64_t(1) << e);
}

inline GlBuffer makeSsbo(const std::vector<uint32_t>& words) {
  GlBuffer b = makeBuffer();
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b.get());
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(words.size() * 4), words.data(),
               GL_STATIC_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return b;
}

// The scale stage's layout: { maxCount, numerator, denominator, float scale } per channel.
// max_counts empty: maxCount is poison (the linear graph must not read it).
inline std::vector<uint32_t> scaleWords(const std::vector<float>& scales,
                                        const std::vector<uint32_t>& max_counts = {}) {
  std::vector<uint32_t> w;
  for (size_t c = 0; c < scales.size(); ++c) {
    uint32_t bits;
    std::memcpy(&bits, &scales[c], 4);
    w.insert(w.end(), {max_counts.empty() ? kPoison : max_counts[c], kPoison, kPoison, bits});
  }
  return w;
}

inline void poisonTarget(const GraphRenderer& g) {
  GlFramebuffer fbo = makeFramebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, fbo.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, g.texture(), 0);
  glClearColor(0xDE / 255.f, 0xAD / 255.f, 0xBE / 255.f, 0xEF / 255.f);
  glClear(GL_COLOR_BUFFER_BIT);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

// `h` drawn by the renderer made for it (`made`, its error passed on) into its poisoned target,
// scales in the scale stage's layout, and read back.
inline Result<RgbaImage> renderPoisoned(Result<GraphRenderer> made, const HistogramData& h,
                                        const std::vector<uint32_t>& scale_words,
                                        const GraphLabels& labels = {}) {
  if (!made) return made.error();
  GlBuffer counts = makeSsbo(h.counts);
  GlBuffer scale = makeSsbo(scale_words);
  poisonTarget(made.value());
  if (Status s = made->render(counts.get(), scale.get(), labels); !s) return s.error();
  return made->read();
}

// A w x h RGBA8 texture attached to a framebuffer, which is left bound and cleared to the
// poison colour (r, g, b, a), so every pixel a draw misses shows.
struct PoisonedTarget {
  GlTexture texture;
  GlFramebuffer fbo;
};
inline PoisonedTarget bindPoisonedTarget(int w, int h, float r, float g, float b, float a) {
  PoisonedTarget t{makeTexture(), makeFramebuffer()};
  glBindTexture(GL_TEXTURE_2D, t.texture.get());
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
  glBindFramebuffer(GL_FRAMEBUFFER, t.fbo.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.texture.get(), 0);
  glClearColor(r, g, b, a);
  glClear(GL_COLOR_BUFFER_BIT);
  return t;
}

// The graph suites' scales: 1 / den per channel, exact in float.
constexpr uint32_t kScaleDen[4] = {64, 32, 128, 64};
inline std::vector<float> fixedScales() {
  std::vector<float> s;
  for (uint32_t d : kScaleDen) s.push_back(1.0f / float(d));
  return s;
}

// A case of the odd-size suites: the histogram's bins and channels, the graph's size.
struct GraphCase {
  int bins;
  std::string channels;
  int w, h;
};
// The histogram of `c`, its counts (bin-major, as the stages write them) `count(bin, channel)`.
template <class Count>
HistogramData histogramOf(const GraphCase& c, Count count) {
  HistogramData h;
  h.bins = c.bins;
  h.channels = c.channels;
  for (int b = 0; b < c.bins; ++b)
    for (int k = 0; k < int(c.channels.size()); ++k) h.counts.push_back(count(b, k));
  return h;
}

// The graph suites' fixed histogram: 16 bins of rgbl, count(bin, c) = (7 bin + 13 c + bin^2)
// % 71, and `empty_bin` (where one is given) empty in every channel.
inline HistogramData fixedHistogram(int empty_bin = -1) {
  return histogramOf({16, "rgbl", 0, 0}, [&](int b, int c) {
    return b == empty_bin ? 0u : uint32_t((b * 7 + c * 13 + b * b) % 71);
  });
}

// A pixel of a graph worked out by hand (x, y from the top left), opaque, and why it is so.
struct HandPixel {
  int x, y;
  uint8_t r, g, b;
  const char* why;
};
inline void expectHandPixels(const RgbaImage& img, std::span<const HandPixel> pixels,
                             const std::string& what) {
  for (const HandPixel& p : pixels) {
    const uint8_t* got = img.at(p.x, p.y);
    EXPECT_TRUE(got[0] == p.r && got[1] == p.g && got[2] == p.b && got[3] == 255)
        << what << " pixel " << p.x << "," << p.y << " is " << int(got[0]) << "," << int(got[1])
        << "," << int(got[2]) << "," << int(got[3]) << ", want " << int(p.r) << "," << int(p.g)
        << "," << int(p.b) << ",255 (" << p.why << ")";
  }
}

// The pixels of `got` that differ from `want` (the first five each a failure naming `what`), or
// -1 (a failure) where the sizes differ.
inline int countDiffs(const RgbaImage& want, const RgbaImage& got, const std::string& what) {
  if (want.width != got.width || want.height != got.height) {
    ADD_FAILURE() << what << ": size " << got.width << "x" << got.height;
    return -1;
  }
  int diffs = 0;
  for (int y = 0; y < want.height; ++y)
    for (int x = 0; x < want.width; ++x)
      if (!std::equal(want.at(x, y), want.at(x, y) + 4, got.at(x, y)) && diffs++ < 5)
        ADD_FAILURE() << what << ": pixel " << x << "," << y << " is " << int(got.at(x, y)[0])
                      << "," << int(got.at(x, y)[1]) << "," << int(got.at(x, y)[2]) << ","
                      << int(got.at(x, y)[3]) << ", want " << int(want.at(x, y)[0]) << ","
                      << int(want.at(x, y)[1]) << "," << int(want.at(x, y)[2]) << ","
                      << int(want.at(x, y)[3]);
  return diffs;
}

}  // namespace esf::test
