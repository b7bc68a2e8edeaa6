#include "platform/egl_image.hpp"

#include <drm_fourcc.h>

#include <utility>
#include <vector>

#include "platform/egl_display.hpp"

namespace esf {

static_assert(kFormatModifierInvalid == DRM_FORMAT_MOD_INVALID,
              "esframe/frame.hpp's kFormatModifierInvalid must be DRM_FORMAT_MOD_INVALID");

Result<EglImage> EglImage::importDmabuf(const EglDisplay& display, const DmabufPlane& plane,
                                        const std::string& what) {
  const EglProcs& procs = display.procs();
  if (!procs.createImage || !procs.destroyImage)
    return fail(ErrorCode::kUnsupported, "cannot import the ", what,
                ": EGL has no EGL_KHR_image_base");
  if (!procs.dmabuf_import)
    return fail(ErrorCode::kUnsupported, "cannot import the ", what,
                ": EGL has no EGL_EXT_image_dma_buf_import");
  std::vector<EGLint> attribs = {EGL_WIDTH,
                                 plane.width,
                                 EGL_HEIGHT,
                                 plane.height,
                                 EGL_LINUX_DRM_FOURCC_EXT,
                                 EGLint(plane.drm_fourcc),
                                 EGL_DMA_BUF_PLANE0_FD_EXT,
                                 plane.fd.get(),
                                 EGL_DMA_BUF_PLANE0_OFFSET_EXT,
                                 EGLint(plane.offset),
                                 EGL_DMA_BUF_PLANE0_PITCH_EXT,
                                 EGLint(plane.pitch)};
  if (plane.modifier != DRM_FORMAT_MOD_INVALID && procs.dmabuf_import_modifiers) {
    attribs.insert(attribs.end(),
                   {EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT, EGLint(plane.modifier & 0xffffffff),
                    EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT, EGLint(plane.modifier >> 32)});
  }
  attribs.push_back(EGL_NONE);
  EglImage image;
  image.image_ = procs.createImage(display.get(), EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, nullptr,
                                   attribs.data());
  if (image.image_ == EGL_NO_IMAGE_KHR)
    return fail(ErrorCode::kGpu, "cannot import the ", what, " into EGL (",
                eglErrorString(eglGetError()), ")");
  image.display_ = display.get();
  image.destroy_ = procs.destroyImage;
  return image;
}

EglImage::EglImage(EglImage&& o) noexcept
    : display_(o.display_),
      image_(std::exchange(o.image_, EGL_NO_IMAGE_KHR)),
      destroy_(o.destroy_) {}

EglImage& EglImage::operator=(EglImage&& o) noexcept {
  if (this != &o) {
    reset();
    display_ = o.display_;
    image_ = std::exchange(o.image_, EGL_NO_IMAGE_KHR);
    destroy_ = o.destroy_;
  }
  return *this;
}

void EglImage::reset() {
  if (image_ != EGL_NO_IMAGE_KHR) destroy_(display_, std::exchange(image_, EGL_NO_IMAGE_KHR));
}

}  // namespace esf
