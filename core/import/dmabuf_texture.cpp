#include "core/import/dmabuf_texture.hpp"

#include <string>

#include "platform/gl_context.hpp"

namespace esf {

Result<std::unique_ptr<DmabufTexture>> DmabufTexture::create(const EglDisplay& display,
                                                             const DmabufPlaneDesc& plane) {
  const auto targetTexture = display.procs().imageTargetTexture2D;
  if (!targetTexture)
    return fail(ErrorCode::kUnsupported, "zero-copy import needs glEGLImageTargetTexture2DOES");
  const std::string what =
      "dmabuf plane " + std::to_string(plane.width) + "x" + std::to_string(plane.height);
  Result<EglImage> image = EglImage::importDmabuf(display, plane, what);
  if (!image) return image.error();
  std::unique_ptr<DmabufTexture> t(new DmabufTexture());
  t->image_ = std::move(image.value());
  t->texture_ = makeTexture();
  glBindTexture(GL_TEXTURE_2D, t->texture_.get());
  targetTexture(GL_TEXTURE_2D, static_cast<GLeglImageOES>(t->image_.get()));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  if (GLenum e = glGetError(); e != GL_NO_ERROR)
    return fail(ErrorCode::kGpu, "cannot bind the imported ", what,
                " to a texture: ", glErrorString(e));
  return t;
}

}  // namespace esf
