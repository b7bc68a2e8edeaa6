#pragma once
// The EGL and GL extension entry points esframe uses, looked up once (kmscube's get_proc_client
// and get_proc_dpy): client procs per process, display procs per EglDisplay when it is
// initialized. A null entry means the extension is missing; callers check before use.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
// gl2ext.h needs gl31.h's platform macros first.
#include <GLES2/gl2ext.h>

namespace esf {

// Procs that need no display (EGL_EXT_device_enumeration / _query).
struct EglClientProcs {
  PFNEGLQUERYDEVICESEXTPROC queryDevices = nullptr;
  PFNEGLQUERYDEVICESTRINGEXTPROC queryDeviceString = nullptr;
  // GL_KHR_robustness or GL_EXT_robustness: whether the current context was lost or reset.
  PFNGLGETGRAPHICSRESETSTATUSKHRPROC getGraphicsResetStatus = nullptr;
};
const EglClientProcs& eglClientProcs();

// Procs of one initialized display, and the display extensions that gate them.
struct EglProcs {
  // EGL_KHR_image_base: only when the display lists it.
  PFNEGLCREATEIMAGEKHRPROC createImage = nullptr;
  PFNEGLDESTROYIMAGEKHRPROC destroyImage = nullptr;
  bool dmabuf_import = false;            // EGL_EXT_image_dma_buf_import
  bool dmabuf_import_modifiers = false;  // EGL_EXT_image_dma_buf_import_modifiers
  // GL_OES_EGL_image (GL extensions can be checked only with a context: callers look at
  // GlContext::hasGlExtension where it matters).
  PFNGLEGLIMAGETARGETTEXTURE2DOESPROC imageTargetTexture2D = nullptr;
  PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC imageTargetRenderbufferStorage = nullptr;
  // GL_KHR_debug
  PFNGLDEBUGMESSAGECALLBACKKHRPROC debugMessageCallback = nullptr;
  // GL_EXT_disjoint_timer_query
  PFNGLGETQUERYOBJECTUI64VEXTPROC getQueryObjectui64v = nullptr;

  static EglProcs load(EGLDisplay display);
};

// Whether a space-separated extension list holds `name` exactly.
bool hasExtensionToken(const char* list, const char* name);

}  // namespace esf
