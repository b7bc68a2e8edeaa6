#pragma once
// One scanout buffer: a GBM buffer object allocated for scanout and rendering, the KMS
// framebuffer that shows it, and the same memory imported into EGL (dmabuf -> EGLImage ->
// renderbuffer -> FBO) so GLES draws into it. Drawing goes through the FBO, never imageStore:
// llvmpipe (kms_swrast) silently drops compute image writes into scanout buffers.
#include <gbm.h>

#include <cstdint>
#include <memory>

#include "esframe/base/result.hpp"
#include "esframe/base/unique_fd.hpp"
#include "platform/drm_objects.hpp"
#include "platform/egl_display.hpp"
#include "platform/egl_image.hpp"
#include "platform/gbm_device.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

class KmsScanoutBuffer {
 public:
  // Allocates on `gbm` (on the KMS card's fd `drm_fd`, which must outlive the buffer) and imports
  // into `egl`, which must be current with a GLES context. `render` = false skips the EGL import
  // (a plain black buffer).
  static Result<std::unique_ptr<KmsScanoutBuffer>> create(gbm_device* gbm, BorrowedFd drm_fd,
                                                          const EglDisplay& egl, uint32_t width,
                                                          uint32_t height, uint32_t format,
                                                          bool render = true);
  ~KmsScanoutBuffer();
  KmsScanoutBuffer(const KmsScanoutBuffer&) = delete;
  KmsScanoutBuffer& operator=(const KmsScanoutBuffer&) = delete;

  uint32_t fbId() const { return framebuffer_.id(); }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  uint32_t format() const { return format_; }
  GLuint framebuffer() const { return fbo_.get(); }  // 0 when created with render = false

 private:
  KmsScanoutBuffer() = default;
  // Declared in the order they are made; destroyed in reverse: GL and EGL first (they reference
  // the memory), then the KMS framebuffer, then the memory.
  GbmBo bo_;
  UniqueFd dmabuf_;
  DrmFramebuffer framebuffer_;
  uint32_t width_ = 0, height_ = 0, format_ = 0;
  EglImage image_;
  GlRenderbuffer renderbuffer_;
  GlFramebuffer fbo_;
};

}  // namespace esf
