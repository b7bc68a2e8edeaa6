#pragma once
// A dmabuf plane imported into GL: an EGLImage (platform/egl_image.hpp) bound to a texture with
// glEGLImageTargetTexture2DOES. One owner for the EGLImage and its texture.
#include <GLES3/gl31.h>

#include <memory>

#include "esframe/base/result.hpp"
#include "platform/egl_display.hpp"
#include "platform/egl_image.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

// The plane to import: fd (borrowed), DRM fourcc, size in texels, offset, pitch, modifier.
using DmabufPlaneDesc = DmabufPlane;

class DmabufTexture {
 public:
  static Result<std::unique_ptr<DmabufTexture>> create(const EglDisplay& display,
                                                       const DmabufPlaneDesc& plane);
  DmabufTexture(const DmabufTexture&) = delete;
  DmabufTexture& operator=(const DmabufTexture&) = delete;
  GLuint texture() const { return texture_.get(); }

 private:
  DmabufTexture() = default;
  EglImage image_;
  GlTexture texture_;  // destroyed before the image (declared after it)
};

}  // namespace esf
