#pragma once
// The GL steps the outputs' draws share: a buffer of words refilled each frame, and the quad
// that covers the viewport.
#include <GLES3/gl31.h>

#include <cstdint>
#include <span>

namespace esf {

// Refills the SSBO `buffer` with `words` (GL_STREAM_DRAW: new contents every frame).
inline void streamWords(GLuint buffer, std::span<const uint32_t> words) {
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(words.size_bytes()), words.data(),
               GL_STREAM_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
}

// Draws the two triangles of `vao`, a quad over the viewport, opaque: blending, depth and
// scissor tests off.
inline void drawViewportQuad(GLuint vao) {
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_SCISSOR_TEST);
  glBindVertexArray(vao);
  glDrawArrays(GL_TRIANGLES, 0, 6);
  glBindVertexArray(0);
}

}  // namespace esf
