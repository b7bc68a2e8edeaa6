#pragma once
// An EGLImage imported from one dmabuf plane (EGL_EXT_image_dma_buf_import, with the modifier
// when EGL_EXT_image_dma_buf_import_modifiers is there), destroyed with the display and the
// eglDestroyImageKHR it was made with. The one import path for dmabuf textures (capture) and
// scanout buffers (KMS).
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdint>
#include <string>

#include "esframe/base/result.hpp"
#include "esframe/base/unique_fd.hpp"
#include "esframe/frame.hpp"

namespace esf {

class EglDisplay;

struct DmabufPlane {
  BorrowedFd fd;            // stays open while the image lives (the image holds its own ref)
  uint32_t drm_fourcc = 0;  // DRM_FORMAT_R8, DRM_FORMAT_GR88, DRM_FORMAT_ABGR8888, ...
  int width = 0;            // in texels of that format
  int height = 0;
  uint32_t offset = 0;
  uint32_t pitch = 0;
  uint64_t modifier = kFormatModifierInvalid;  // none given
};

class EglImage {
 public:
  EglImage() = default;
  // `what` names the buffer in errors ("dmabuf plane 64x48", "640x480 XRGB8888 scanout buffer").
  static Result<EglImage> importDmabuf(const EglDisplay& display, const DmabufPlane& plane,
                                       const std::string& what);
  ~EglImage() { reset(); }
  EglImage(EglImage&& o) noexcept;
  EglImage& operator=(EglImage&& o) noexcept;
  EglImage(const EglImage&) = delete;
  EglImage& operator=(const EglImage&) = delete;

  EGLImageKHR get() const { return image_; }
  explicit operator bool() const { return image_ != EGL_NO_IMAGE_KHR; }
  void reset();

 private:
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLImageKHR image_ = EGL_NO_IMAGE_KHR;
  PFNEGLDESTROYIMAGEKHRPROC destroy_ = nullptr;
};

}  // namespace esf
