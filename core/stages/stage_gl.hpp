#pragma once
// Small GL helpers the stages share: storage buffers, fills, read-back, binding the source
// image (texture unit 0 as u_image, or the packed buffer at SSBO binding 1).
#include <cstdint>
#include <utility>
#include <vector>

#include "core/stats/health_regions.hpp"
#include "esframe/base/result.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

// An SSBO of `words` uint32, contents undefined.
Result<GlBuffer> makeStorageBuffer(size_t words, const char* what);
// Writes `value` into words [first, first + words) with glBufferSubData, after a barrier that
// orders it behind earlier shader writes to the buffer.
Status fillBuffer(GLuint buffer, size_t words, uint32_t value, const char* what, size_t first = 0);
// Maps words [first, first + words) back after a GL_BUFFER_UPDATE_BARRIER_BIT barrier.
Result<std::vector<uint32_t>> readWords(GLuint buffer, size_t words, const char* what,
                                        size_t first = 0);
// Words [0, words) of `buffer`, one shaders add into with atomics and the host never maps (a
// buffer it maps may be kept in host memory, where every atomic would cross the bus): copied on
// the GPU into a buffer of their own, which readWords() maps. A stage's read() used alone; a
// pipeline's frame reads its results through its one read-back.
Result<std::vector<uint32_t>> readWordsByCopy(GLuint buffer, size_t words, const char* what);
// Words [first, first + words) of a GPU buffer: a stage's result, which a frame's read-back
// copies beside the other stages' into one buffer it maps once (core/pipeline/frame_readback).
struct GpuWords {
  GLuint buffer = 0;
  size_t first = 0;
  size_t words = 0;
};
// How many maps readWords() has made in this process: a test counts a frame's read-backs.
uint64_t readWordsMaps();
// Copies words [from_first, + words) of `from` to `to` at to_first on the GPU (after the barrier
// that makes shader writes visible to buffer copies, GL_BUFFER_UPDATE_BARRIER_BIT).
void copyWords(GLuint from, size_t from_first, GLuint to, size_t to_first, size_t words);
// Sets the health stages' `u_rois[i]` (x0, y0, x1, y1) to the spans of `regions`' rectangles
// on a width x height frame.
void setRoiUniforms(GLuint program, const HealthRegionSpec& regions, int width, int height);
// Binds the source image for a program that declares `u_image` (texture != 0) or a packed
// buffer at binding 1 (buffer != 0), after the barrier that makes earlier imageStore / SSBO
// writes to it visible.
void bindSourceImage(GLuint program, GLuint texture, GLuint buffer);
// A stage configured for one source form (a texture, or a packed buffer) and given the other is
// refused, naming both; the same form passes.
Status checkSourceForm(const char* stage, bool configured_for_texture, bool given_texture);
// The barrier bits after a stage's last write to an SSBO: any later shader, uniform, vertex,
// indirect, copy or map access sees it.
constexpr GLbitfield kStorageWrittenBarrier =
    GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT |
    GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_COMMAND_BARRIER_BIT | GL_ELEMENT_ARRAY_BARRIER_BIT;
// After a stage's imageStore writes to a texture: texelFetch, image loads, framebuffer reads,
// texture uploads/downloads.
constexpr GLbitfield kImageWrittenBarrier =
    GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT |
    GL_TEXTURE_UPDATE_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT;

// `program`, compiled by `compile` (a Result<GlProgram>) at its first use: a stage makes its
// other forms (a packed source, a luma image, a blur's buffer passes) at the first frame that
// needs them.
template <typename Compile>
Result<GLuint> builtOnce(GlProgram& program, Compile compile) {
  if (!program.get()) {
    Result<GlProgram> p = compile();
    if (!p) return p.error();
    program = std::move(p.value());
  }
  return program.get();
}

// A pass that may be queued beside another (FrameDifference, Sobel) run alone: `queued`, its
// queue's outcome, then the barrier that makes its sums visible, then its complete().
template <typename Pass>
Status completeAlone(Pass& pass, Status queued) {
  if (!queued) return queued;
  glMemoryBarrier(kStorageWrittenBarrier);
  return pass.complete();
}

}  // namespace esf
