#include "core/import/dmabuf_texture.hpp"

#include <GLES2/gl2ext.h>

#include <string>
#include <vector>

#include "platform/gl_context.hpp"

namespace esf {
namespace {

struct EglImageFunctions {
  PFNEGLCREATEIMAGEKHRPROC create = nullptr;
  PFNEGLDESTROYIMAGEKHRPROC destroy = nullptr;
  PFNGLEGLIMAGETARGETTEXTURE2DOESPROC target = nullptr;
};

const EglImageFunctions& functions() {
  static const EglImageFunctions f = [] {
    EglImageFunctions r;
    r.create = reinterpret_cast<PFNEGLCREATEIMAGEKHRPROC>(eglGetProcAddress("eglCreateImageKHR"));
    r.destroy =
        reinterpret_cast<PFNEGLDESTROYIMAGEKHRPROC>(eglGetProcAddress("eglDestroyImageKHR"));
    r.target = reinterpret_cast<PFNGLEGLIMAGETARGETTEXTURE2DOESPROC>(
        eglGetProcAddress("glEGLImageTargetTexture2DOES"));
    return r;
  }();
  return f;
}

bool displayHas(EGLDisplay d, const char* ext) {
  const char* all = eglQueryString(d, EGL_EXTENSIONS);
  if (!all) return false;
  const std::string s = std::string(" ") + all + " ";
  return s.find(std::string(" ") + ext + " ") != std::string::npos;
}

}  // namespace

Result<std::unique_ptr<DmabufTexture>> DmabufTexture::create(EGLDisplay display,
                                                             const DmabufPlaneDesc& d) {
  const auto& fn = functions();
  if (!fn.create || !fn.destroy || !fn.target)
    return fail("zero-copy import needs eglCreateImageKHR and glEGLImageTargetTexture2DOES");
  if (!displayHas(display, "EGL_EXT_image_dma_buf_import"))
    return fail("zero-copy import needs EGL_EXT_image_dma_buf_import");
  std::vector<EGLint> attribs = {EGL_WIDTH,
                                 d.width,
                                 EGL_HEIGHT,
                                 d.height,
                                 EGL_LINUX_DRM_FOURCC_EXT,
                                 EGLint(d.drm_fourcc),
                                 EGL_DMA_BUF_PLANE0_FD_EXT,
                                 d.fd,
                                 EGL_DMA_BUF_PLANE0_OFFSET_EXT,
                                 EGLint(d.offset),
                                 EGL_DMA_BUF_PLANE0_PITCH_EXT,
                                 EGLint(d.pitch)};
  if (d.modifier != 0x00ffffffffffffffull &&
      displayHas(display, "EGL_EXT_image_dma_buf_import_modifiers")) {
    attribs.insert(attribs.end(),
                   {EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT, EGLint(d.modifier & 0xffffffff),
                    EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT, EGLint(d.modifier >> 32)});
  }
  attribs.push_back(EGL_NONE);
  std::unique_ptr<DmabufTexture> t(new DmabufTexture());
  t->display_ = display;
  t->image_ = fn.create(display, EGL_NO_CONTEXT, EGL_LINUX_DMA_BUF_EXT, nullptr, attribs.data());
  if (t->image_ == EGL_NO_IMAGE_KHR)
    return fail("cannot import dmabuf plane ", std::to_string(d.width), "x",
                std::to_string(d.height), " into EGL: ", eglErrorString(eglGetError()));
  t->texture_ = makeTexture();
  glBindTexture(GL_TEXTURE_2D, t->texture_.get());
  fn.target(GL_TEXTURE_2D, static_cast<GLeglImageOES>(t->image_));
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  if (GLenum e = glGetError(); e != GL_NO_ERROR)
    return fail("cannot bind the imported dmabuf to a texture: ", glErrorString(e));
  return t;
}

DmabufTexture::~DmabufTexture() {
  texture_.reset();
  if (image_ != EGL_NO_IMAGE_KHR) functions().destroy(display_, image_);
}

}  // namespace esf
