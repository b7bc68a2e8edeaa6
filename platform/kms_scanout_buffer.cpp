#include "platform/kms_scanout_buffer.hpp"

#include <GLES2/gl2ext.h>
#include <drm_fourcc.h>
#include <xf86drmMode.h>

#include <cerrno>
#include <cstring>

#include "platform/egl_display.hpp"
#include "platform/gl_context.hpp"
#include "platform/kms_device.hpp"

namespace esf {
namespace {

template <typename Fn>
Fn eglProc(const char* name) {
  return reinterpret_cast<Fn>(eglGetProcAddress(name));
}

}  // namespace

Result<std::unique_ptr<KmsScanoutBuffer>> KmsScanoutBuffer::create(gbm_device* gbm, int drm_fd,
                                                                   EGLDisplay egl_display,
                                                                   uint32_t width, uint32_t height,
                                                                   uint32_t format, bool render) {
  std::unique_ptr<KmsScanoutBuffer> b(new KmsScanoutBuffer());
  b->drm_fd_ = drm_fd;
  b->width_ = width;
  b->height_ = height;
  b->format_ = format;
  const std::string what = std::to_string(width) + "x" + std::to_string(height) + " " +
                           fourccName(format) + " scanout buffer";
  b->bo_ = gbm_bo_create(gbm, width, height, format,
                         GBM_BO_USE_SCANOUT | (render ? GBM_BO_USE_RENDERING : 0));
  if (!b->bo_) return fail("gbm_bo_create failed for a ", what, ": ", std::strerror(errno));

  uint32_t handles[4] = {gbm_bo_get_handle(b->bo_).u32};
  uint32_t pitches[4] = {gbm_bo_get_stride(b->bo_)};
  uint32_t offsets[4] = {gbm_bo_get_offset(b->bo_, 0)};
  if (drmModeAddFB2(drm_fd, width, height, format, handles, pitches, offsets, &b->fb_id_, 0) != 0)
    return fail("drmModeAddFB2 failed for a ", what, ": ", std::strerror(errno));
  if (!render) {
    // A plain buffer is cleared through a CPU mapping: no GL needed.
    uint32_t stride = 0;
    void* map_data = nullptr;
    void* p = gbm_bo_map(b->bo_, 0, 0, width, height, GBM_BO_TRANSFER_WRITE, &stride, &map_data);
    if (!p) return fail("gbm_bo_map failed for a ", what);
    for (uint32_t y = 0; y < height; ++y) {
      auto* row = static_cast<uint32_t*>(static_cast<void*>(static_cast<char*>(p) + y * stride));
      for (uint32_t x = 0; x < width; ++x) row[x] = 0xff000000u;  // opaque black
    }
    gbm_bo_unmap(b->bo_, map_data);
    return b;
  }

  b->dmabuf_.reset(gbm_bo_get_fd(b->bo_));
  if (!b->dmabuf_.valid()) return fail("cannot export the ", what, " as a dmabuf");
  auto createImage = eglProc<PFNEGLCREATEIMAGEKHRPROC>("eglCreateImageKHR");
  auto targetRenderbuffer = eglProc<PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC>(
      "glEGLImageTargetRenderbufferStorageOES");
  if (!createImage || !targetRenderbuffer)
    return fail("EGL has no eglCreateImageKHR/glEGLImageTargetRenderbufferStorageOES");
  const EGLint attribs[] = {EGL_WIDTH,
                            EGLint(width),
                            EGL_HEIGHT,
                            EGLint(height),
                            EGL_LINUX_DRM_FOURCC_EXT,
                            EGLint(format),
                            EGL_DMA_BUF_PLANE0_FD_EXT,
                            b->dmabuf_.get(),
                            EGL_DMA_BUF_PLANE0_OFFSET_EXT,
                            EGLint(offsets[0]),
                            EGL_DMA_BUF_PLANE0_PITCH_EXT,
                            EGLint(pitches[0]),
                            EGL_NONE};
  b->image_ = createImage(egl_display, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, nullptr, attribs);
  if (b->image_ == EGL_NO_IMAGE_KHR)
    return fail("cannot import the ", what, " into EGL (", eglErrorString(eglGetError()),
                "): the GL context must run on the display's card (--egl gbm --drm-device CARD)");
  b->egl_display_ = egl_display;

  b->renderbuffer_ = makeRenderbuffer();
  glBindRenderbuffer(GL_RENDERBUFFER, b->renderbuffer_.get());
  targetRenderbuffer(GL_RENDERBUFFER, b->image_);
  b->fbo_ = makeFramebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, b->fbo_.get());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                            b->renderbuffer_.get());
  GLenum complete = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  if (Status s = checkGl(("binding the " + what + " to an FBO").c_str()); !s) return s.error();
  if (complete != GL_FRAMEBUFFER_COMPLETE)
    return fail("the ", what, " is not a complete GL framebuffer (status ",
                std::to_string(complete), ")");
  return b;
}

KmsScanoutBuffer::~KmsScanoutBuffer() {
  // GL and EGL first (they reference the memory), then the KMS framebuffer, then the memory.
  fbo_.reset();
  renderbuffer_.reset();
  if (image_ != EGL_NO_IMAGE_KHR) {
    auto destroyImage = eglProc<PFNEGLDESTROYIMAGEKHRPROC>("eglDestroyImageKHR");
    if (destroyImage) destroyImage(egl_display_, image_);
  }
  if (fb_id_) drmModeRmFB(drm_fd_, fb_id_);
  if (bo_) gbm_bo_destroy(bo_);
}

}  // namespace esf
