#pragma once
// A dmabuf plane imported into GL: EGLImage (EGL_EXT_image_dma_buf_import, with the buffer's
// modifier when EGL_EXT_image_dma_buf_import_modifiers is present) bound to a texture with
// glEGLImageTargetTexture2DOES. One owner for the EGLImage and its texture.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

#include <cstdint>
#include <memory>

#include "esframe/base/result.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

struct DmabufPlaneDesc {
  int fd = -1;
  uint32_t drm_fourcc = 0;  // DRM_FORMAT_R8, DRM_FORMAT_GR88, DRM_FORMAT_ABGR8888
  int width = 0;            // in texels of that format
  int height = 0;
  uint32_t offset = 0;
  uint32_t pitch = 0;
  uint64_t modifier = 0x00ffffffffffffffull;  // DRM_FORMAT_MOD_INVALID: none given
};

class DmabufTexture {
 public:
  static Result<std::unique_ptr<DmabufTexture>> create(EGLDisplay display,
                                                       const DmabufPlaneDesc& d);
  ~DmabufTexture();
  DmabufTexture(const DmabufTexture&) = delete;
  DmabufTexture& operator=(const DmabufTexture&) = delete;
  GLuint texture() const { return texture_.get(); }

 private:
  DmabufTexture() = default;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLImageKHR image_ = EGL_NO_IMAGE_KHR;
  GlTexture texture_;  // destroyed before the image (declared after it)
};

}  // namespace esf
