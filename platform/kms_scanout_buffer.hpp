#pragma once
// One scanout buffer: a GBM buffer object allocated for scanout and rendering, the KMS
// framebuffer that shows it, and the same memory imported into EGL (dmabuf -> EGLImage ->
// renderbuffer -> FBO) so GLES draws into it. Drawing goes through the FBO, never imageStore:
// llvmpipe (kms_swrast) silently drops compute image writes into scanout buffers.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <gbm.h>

#include <cstdint>
#include <memory>

#include "esframe/base/result.hpp"
#include "esframe/base/unique_fd.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

class KmsScanoutBuffer {
 public:
  // Allocates on `gbm` (the KMS card's fd `drm_fd`) and imports into `egl_display`, which must be
  // current with a GLES context. `render` = false skips the EGL import (a plain black buffer).
  static Result<std::unique_ptr<KmsScanoutBuffer>> create(gbm_device* gbm, int drm_fd,
                                                          EGLDisplay egl_display, uint32_t width,
                                                          uint32_t height, uint32_t format,
                                                          bool render = true);
  ~KmsScanoutBuffer();
  KmsScanoutBuffer(const KmsScanoutBuffer&) = delete;
  KmsScanoutBuffer& operator=(const KmsScanoutBuffer&) = delete;

  uint32_t fbId() const { return fb_id_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  uint32_t format() const { return format_; }
  GLuint framebuffer() const { return fbo_.get(); }  // 0 when created with render = false

 private:
  KmsScanoutBuffer() = default;
  int drm_fd_ = -1;
  gbm_bo* bo_ = nullptr;
  uint32_t fb_id_ = 0;
  uint32_t width_ = 0, height_ = 0, format_ = 0;
  UniqueFd dmabuf_;
  EGLDisplay egl_display_ = EGL_NO_DISPLAY;
  EGLImageKHR image_ = EGL_NO_IMAGE_KHR;
  GlRenderbuffer renderbuffer_;
  GlFramebuffer fbo_;
};

}  // namespace esf
