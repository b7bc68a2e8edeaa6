#include "core/stages/stage_gl.hpp"

#include <atomic>
#include <cstring>
#include <string>

#include "platform/gl_context.hpp"
#include "platform/gl_fence.hpp"

namespace esf {

Result<GlBuffer> makeStorageBuffer(size_t words, const char* what) {
  GlBuffer b = makeBuffer();
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b.get());
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(words * 4), nullptr, GL_DYNAMIC_COPY);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  if (Status s = checkGl(what); !s)
    return fail(s.error().code, s.error().message, " (", std::to_string(words * 4), " bytes)");
  return b;
}

Status fillBuffer(GLuint buffer, size_t words, uint32_t value, const char* what, size_t first) {
  std::vector<uint32_t> data(words, value);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, GLintptr(first * 4), GLsizeiptr(words * 4),
                  data.data());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return checkGl(what);
}

namespace {
std::atomic<uint64_t> read_words_maps{0};
}  // namespace

uint64_t readWordsMaps() {
  return read_words_maps.load();
}

Result<std::vector<uint32_t>> readWords(GLuint buffer, size_t words, const char* what,
                                        size_t first) {
  read_words_maps.fetch_add(1);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  // glMapBufferRange would wait for the GPU without a limit: a hung GPU becomes an error here.
  if (Status done = GlFence::insert(what).wait(kGpuWatchdog); !done) return done.error();
  std::vector<uint32_t> out(words);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  const void* p = glMapBufferRange(GL_SHADER_STORAGE_BUFFER, GLintptr(first * 4),
                                   GLsizeiptr(words * 4), GL_MAP_READ_BIT);
  if (!p) {
    // Nothing is mapped, so nothing to unmap; the GL error the map left is this failure's.
    const Status why = checkGl("glMapBufferRange");
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    return fail(ErrorCode::kGpu, what, ": ", why ? "glMapBufferRange failed" : why.error().message);
  }
  std::memcpy(out.data(), p, words * 4);
  const bool intact = glUnmapBuffer(GL_SHADER_STORAGE_BUFFER) == GL_TRUE;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  if (!intact)  // GLES 3: the driver lost the mapping's contents (a reset)
    return fail(ErrorCode::kGpu, what, ": the buffer was lost while mapped");
  return out;
}

Result<std::vector<uint32_t>> readWordsByCopy(GLuint buffer, size_t words, const char* what) {
  Result<GlBuffer> copy = makeStorageBuffer(words, what);
  if (!copy) return copy.error();
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  copyWords(buffer, 0, copy->get(), 0, words);
  return readWords(copy->get(), words, what);
}

void copyWords(GLuint from, size_t from_first, GLuint to, size_t to_first, size_t words) {
  glBindBuffer(GL_COPY_READ_BUFFER, from);
  glBindBuffer(GL_COPY_WRITE_BUFFER, to);
  glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, GLintptr(from_first * 4),
                      GLintptr(to_first * 4), GLsizeiptr(words * 4));
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
}

void setRoiUniforms(GLuint program, const HealthRegionSpec& regions, int width, int height) {
  const std::vector<RegionSpan> spans = healthRegionSpans(regions, width, height);
  for (size_t i = 0; i < regions.rois.size(); ++i) {
    const RegionSpan& r = spans[regions.cells() + i];
    const std::string name = "u_rois[" + std::to_string(i) + "]";
    glUniform4ui(glGetUniformLocation(program, name.c_str()), GLuint(r.x0), GLuint(r.y0),
                 GLuint(r.x1), GLuint(r.y1));
  }
}

Status checkSourceForm(const char* stage, bool configured_for_texture, bool given_texture) {
  if (configured_for_texture == given_texture) return Status::success();
  return given_texture ? fail(ErrorCode::kInvalidArgument, stage,
                              ": configured for a packed buffer source, given a texture")
                       : fail(ErrorCode::kInvalidArgument, stage,
                              ": configured for a texture source, given a packed buffer");
}

void bindSourceImage(GLuint program, GLuint texture, GLuint buffer) {
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
  if (texture) {
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    glUniform1i(glGetUniformLocation(program, "u_image"), 0);
  } else {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buffer);
  }
}

}  // namespace esf
