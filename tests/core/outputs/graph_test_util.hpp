#pragma once
// GPU inputs of the graph renderer for tests: SSBOs in the histogram and scale stages' layouts,
// and a poisoned target.
#include <cstring>
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

}  // namespace esf::test
