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

// glDelete* of buffers, textures and the like frees an array of names; a handle frees its one.
template <void (*Delete)(GLsizei, const GLuint*)>
void deleteOne(GLuint id) {
  Delete(1, &id);
}

using GlBuffer = GlHandle<deleteOne<glDeleteBuffers>>;
using GlTexture = GlHandle<deleteOne<glDeleteTextures>>;
using GlFramebuffer = GlHandle<deleteOne<glDeleteFramebuffers>>;
using GlRenderbuffer = GlHandle<deleteOne<glDeleteRenderbuffers>>;
using GlQuery = GlHandle<deleteOne<glDeleteQueries>>;
using GlVertexArray = GlHandle<deleteOne<glDeleteVertexArrays>>;
using GlProgram = GlHandle<glDeleteProgram>;
using GlShader = GlHandle<glDeleteShader>;

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
