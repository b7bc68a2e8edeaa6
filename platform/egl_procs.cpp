#include "platform/egl_procs.hpp"

#include <string_view>

namespace esf {
namespace {

template <typename Fn>
Fn proc(const char* name) {
  return reinterpret_cast<Fn>(eglGetProcAddress(name));
}

// kmscube's get_proc_dpy: a display proc only when the display has its extension.
template <typename Fn>
Fn displayProc(EGLDisplay display, const char* extension, const char* name) {
  return hasExtensionToken(eglQueryString(display, EGL_EXTENSIONS), extension) ? proc<Fn>(name)
                                                                               : nullptr;
}

}  // namespace

bool hasExtensionToken(const char* list, const char* name) {
  if (!list) return false;
  std::string_view all(list), want(name);
  for (size_t pos = 0; pos <= all.size();) {
    size_t end = all.find(' ', pos);
    if (end == std::string_view::npos) end = all.size();
    if (all.substr(pos, end - pos) == want) return true;
    pos = end + 1;
  }
  return false;
}

const EglClientProcs& eglClientProcs() {
  static const EglClientProcs procs = [] {
    EglClientProcs p;
    p.queryDevices = proc<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
    p.queryDeviceString = proc<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
    p.getGraphicsResetStatus =
        proc<PFNGLGETGRAPHICSRESETSTATUSKHRPROC>("glGetGraphicsResetStatusKHR");
    if (!p.getGraphicsResetStatus)
      p.getGraphicsResetStatus =
          proc<PFNGLGETGRAPHICSRESETSTATUSKHRPROC>("glGetGraphicsResetStatusEXT");
    return p;
  }();
  return procs;
}

EglProcs EglProcs::load(EGLDisplay display) {
  EglProcs p;
  p.createImage =
      displayProc<PFNEGLCREATEIMAGEKHRPROC>(display, "EGL_KHR_image_base", "eglCreateImageKHR");
  p.destroyImage =
      displayProc<PFNEGLDESTROYIMAGEKHRPROC>(display, "EGL_KHR_image_base", "eglDestroyImageKHR");
  const char* extensions = eglQueryString(display, EGL_EXTENSIONS);
  p.dmabuf_import = hasExtensionToken(extensions, "EGL_EXT_image_dma_buf_import");
  p.dmabuf_import_modifiers =
      hasExtensionToken(extensions, "EGL_EXT_image_dma_buf_import_modifiers");
  p.imageTargetTexture2D =
      proc<PFNGLEGLIMAGETARGETTEXTURE2DOESPROC>("glEGLImageTargetTexture2DOES");
  p.imageTargetRenderbufferStorage =
      proc<PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC>("glEGLImageTargetRenderbufferStorageOES");
  p.debugMessageCallback = proc<PFNGLDEBUGMESSAGECALLBACKKHRPROC>("glDebugMessageCallbackKHR");
  p.getQueryObjectui64v = proc<PFNGLGETQUERYOBJECTUI64VEXTPROC>("glGetQueryObjectui64vEXT");
  return p;
}

}  // namespace esf
