#include "platform/kms_scanout_buffer.hpp"

#include <xf86drmMode.h>

#include <cerrno>
#include <cstring>

#include "platform/gl_context.hpp"

namespace esf {

Result<std::unique_ptr<KmsScanoutBuffer>> KmsScanoutBuffer::create(gbm_device* gbm,
                                                                   BorrowedFd drm_fd,
                                                                   const EglDisplay& egl,
                                                                   uint32_t width, uint32_t height,
                                                                   uint32_t format, bool render) {
  std::unique_ptr<KmsScanoutBuffer> b(new KmsScanoutBuffer());
  b->width_ = width;
  b->height_ = height;
  b->format_ = format;
  const std::string what = std::to_string(width) + "x" + std::to_string(height) + " " +
                           drmFormatName(format) + " scanout buffer";
  b->bo_.reset(gbm_bo_create(gbm, width, height, format,
                             GBM_BO_USE_SCANOUT | (render ? GBM_BO_USE_RENDERING : 0)));
  if (!b->bo_)
    return fail(ErrorCode::kGpu, "gbm_bo_create failed for a ", what, ": ", std::strerror(errno));
  gbm_bo* bo = b->bo_.get();

  uint32_t handles[4] = {gbm_bo_get_handle(bo).u32};
  uint32_t pitches[4] = {gbm_bo_get_stride(bo)};
  uint32_t offsets[4] = {gbm_bo_get_offset(bo, 0)};
  uint32_t fb_id = 0;
  if (drmModeAddFB2(drm_fd.get(), width, height, format, handles, pitches, offsets, &fb_id, 0) != 0)
    return fail(errorCodeFromErrno(errno), "drmModeAddFB2 failed for a ", what, ": ",
                std::strerror(errno));
  b->framebuffer_ = DrmFramebuffer(drm_fd, fb_id);
  if (!render) {
    // A plain buffer is cleared through a CPU mapping: no GL needed.
    uint32_t stride = 0;
    void* map_data = nullptr;
    void* p = gbm_bo_map(bo, 0, 0, width, height, GBM_BO_TRANSFER_WRITE, &stride, &map_data);
    if (!p) return fail(ErrorCode::kGpu, "gbm_bo_map failed for a ", what);
    for (uint32_t y = 0; y < height; ++y) {
      auto* row = static_cast<uint32_t*>(static_cast<void*>(static_cast<char*>(p) + y * stride));
      for (uint32_t x = 0; x < width; ++x) row[x] = 0xff000000u;  // opaque black
    }
    gbm_bo_unmap(bo, map_data);
    return b;
  }

  b->dmabuf_.reset(gbm_bo_get_fd(bo));
  if (!b->dmabuf_.valid()) return fail(ErrorCode::kGpu, "cannot export the ", what, " as a dmabuf");
  const auto targetRenderbuffer = egl.procs().imageTargetRenderbufferStorage;
  if (!targetRenderbuffer)
    return fail(ErrorCode::kUnsupported, "cannot draw into the ", what,
                ": GL has no glEGLImageTargetRenderbufferStorageOES");
  // No modifier: the buffer was allocated without a modifier list, so the driver's implicit one
  // applies on both sides.
  const DmabufPlane plane{b->dmabuf_, format, int(width), int(height), offsets[0], pitches[0]};
  Result<EglImage> image = EglImage::importDmabuf(egl, plane, what);
  if (!image)
    return fail(image.error().code, image.error().message,
                ": the GL context must run on the display's card (EGL on GBM of that card)");
  b->image_ = std::move(image.value());

  b->renderbuffer_ = makeRenderbuffer();
  glBindRenderbuffer(GL_RENDERBUFFER, b->renderbuffer_.get());
  targetRenderbuffer(GL_RENDERBUFFER, b->image_.get());
  b->fbo_ = makeFramebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, b->fbo_.get());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                            b->renderbuffer_.get());
  GLenum complete = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  if (Status s = checkGl(("binding the " + what + " to an FBO").c_str()); !s) return s.error();
  if (complete != GL_FRAMEBUFFER_COMPLETE)
    return fail(ErrorCode::kGpu, "the ", what, " is not a complete GL framebuffer (status ",
                std::to_string(complete), ")");
  return b;
}

KmsScanoutBuffer::~KmsScanoutBuffer() = default;

}  // namespace esf
