#pragma once
// One owner per GL object. No raw GLuint leaves its owner except through get() for binding.
#include <GLES3/gl31.h>

#include <utility>

namespace esf {

// Deleter signatures differ (glDeleteBuffers takes n + array, glDeleteProgram takes a name),
// so each handle type names its own release function.
template <void (*Release)(GLuint)>
class GlHandle {
 public:
  GlHandle() = default;
  explicit GlHandle(GLuint id) : id_(id) {}
  ~GlHandle() { reset(); }
  GlHandle(GlHandle&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  GlHandle& operator=(GlHandle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }
  GlHandle(const GlHandle&) = delete;
  GlHandle& operator=(const GlHandle&) = delete;

  GLuint get() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  void reset() {
    if (id_) Release(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

namespace gl_release {
inline void buffer(GLuint id) {
  glDeleteBuffers(1, &id);
}
inline void texture(GLuint id) {
  glDeleteTextures(1, &id);
}
inline void framebuffer(GLuint id) {
  glDeleteFramebuffers(1, &id);
}
inline void renderbuffer(GLuint id) {
  glDeleteRenderbuffers(1, &id);
}
inline void query(GLuint id) {
  glDeleteQueries(1, &id);
}
inline void vertexArray(GLuint id) {
  glDeleteVertexArrays(1, &id);
}
inline void program(GLuint id) {
  glDeleteProgram(id);
}
inline void shader(GLuint id) {
  glDeleteShader(id);
}
}  // namespace gl_release

using GlBuffer = GlHandle<gl_release::buffer>;
using GlTexture = GlHandle<gl_release::texture>;
using GlFramebuffer = GlHandle<gl_release::framebuffer>;
using GlRenderbuffer = GlHandle<gl_release::renderbuffer>;
using GlQuery = GlHandle<gl_release::query>;
using GlVertexArray = GlHandle<gl_release::vertexArray>;
using GlProgram = GlHandle<gl_release::program>;
using GlShader = GlHandle<gl_release::shader>;

// glGen* creates names one at a time here; each make*() hands the name to its owner.
template <typename Handle, void (*Generate)(GLsizei, GLuint*)>
Handle generateOne() {
  GLuint id = 0;
  Generate(1, &id);
  return Handle(id);
}
inline GlBuffer makeBuffer() {
  return generateOne<GlBuffer, glGenBuffers>();
}
inline GlTexture makeTexture() {
  return generateOne<GlTexture, glGenTextures>();
}
inline GlFramebuffer makeFramebuffer() {
  return generateOne<GlFramebuffer, glGenFramebuffers>();
}
inline GlRenderbuffer makeRenderbuffer() {
  return generateOne<GlRenderbuffer, glGenRenderbuffers>();
}
inline GlQuery makeQuery() {
  return generateOne<GlQuery, glGenQueries>();
}
inline GlVertexArray makeVertexArray() {
  return generateOne<GlVertexArray, glGenVertexArrays>();
}

}  // namespace esf
