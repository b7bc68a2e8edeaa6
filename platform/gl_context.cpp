#include "platform/gl_context.hpp"

#include <GLES2/gl2ext.h>

#include <cstring>

#include "esframe/base/log.hpp"
#include "platform/code_names.hpp"
#include "platform/gl_spec_limits.hpp"
#include "platform/workgroup_shape.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>
#endif

namespace esf {
namespace {

void GL_APIENTRY debugCallback(GLenum, GLenum type, GLuint, GLenum severity, GLsizei length,
                               const GLchar* message, const void*) {
  std::string m = "GL: ";
  m.append(message, length > 0 ? size_t(length) : std::strlen(message));
  bool bad = type == GL_DEBUG_TYPE_ERROR_KHR || severity == GL_DEBUG_SEVERITY_HIGH_KHR;
  logLine(bad ? LogLevel::kWarning : LogLevel::kInfo, m);
}

void enableDebugOutput(const EglProcs& procs) {
  const auto callback = procs.debugMessageCallback;
  if (!callback) {
    logWarning("GL debug output requested, but the driver has no GL_KHR_debug");
    return;
  }
  glEnable(GL_DEBUG_OUTPUT_KHR);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR);
  callback(debugCallback, nullptr);
}

#if defined(__SANITIZE_ADDRESS__)
// Mesa's DRI driver keeps a small allocation that only its own globals point to, and
// eglTerminate dlclose()s the driver, so LeakSanitizer then reports it from "<unknown module>".
// Keeping the driver mapped leaves the allocation reachable: no false leak, no suppression.
void pinDriDrivers() {
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void*) {
        if (info->dlpi_name && std::strstr(info->dlpi_name, "_dri.so"))
          dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        return 0;
      },
      nullptr);
}
#else
void pinDriDrivers() {}
#endif

}  // namespace

const char* glErrorString(GLenum e) {
  static constexpr CodeName kErrors[] = {ESF_CODE_NAME(GL_NO_ERROR),
                                         ESF_CODE_NAME(GL_INVALID_ENUM),
                                         ESF_CODE_NAME(GL_INVALID_VALUE),
                                         ESF_CODE_NAME(GL_INVALID_OPERATION),
                                         ESF_CODE_NAME(GL_INVALID_FRAMEBUFFER_OPERATION),
                                         ESF_CODE_NAME(GL_OUT_OF_MEMORY)};
  return codeName(e, kErrors, "GL error");
}

Status checkGl(const char* what) {
  GLenum first = glGetError();
  if (first == GL_NO_ERROR) return {};
  while (glGetError() != GL_NO_ERROR) {
  }
  return fail(ErrorCode::kGpu, what, ": ", glErrorString(first));
}

GlContextOptions glContextOptions(const GpuConfig& gpu) {
  GlContextOptions options;
  options.egl.platform = gpu.platform;
  options.egl.drm_device = gpu.drm_device;
  options.egl.egl_device = gpu.egl_device;
  options.debug = gpu.debug;
  return options;
}

Result<std::unique_ptr<GlContext>> GlContext::create(const GlContextOptions& o) {
  logDebug("EGL: opening a display");  // -vv's timeline: EGL's start
  Result<std::unique_ptr<EglDisplay>> display = EglDisplay::open(o.egl);
  if (!display) return display.error();
  std::unique_ptr<GlContext> c(new GlContext());
  c->display_ = std::move(display.value());
  EGLDisplay dpy = c->display_->get();

  if (!eglBindAPI(EGL_OPENGL_ES_API))
    return fail(ErrorCode::kGpu, "eglBindAPI(EGL_OPENGL_ES_API) failed");
  if (!c->display_->hasExtension("EGL_KHR_surfaceless_context"))
    return fail(ErrorCode::kUnsupported,
                "EGL display has no EGL_KHR_surfaceless_context: cannot run headless");

  EGLConfig config = EGL_NO_CONFIG_KHR;
  if (!c->display_->hasExtension("EGL_KHR_no_config_context")) {
    const EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE};
    EGLint n = 0;
    if (!eglChooseConfig(dpy, want, &config, 1, &n) || n == 0)
      return fail(ErrorCode::kUnsupported, "no EGL config for OpenGL ES 3");
  }

  // Robust access keeps an out-of-range access from taking the GPU down with it; losing the
  // context on a GPU reset (where the driver offers it) makes a reset visible to the fence
  // watchdog (platform/gl_fence.hpp) as kGpuLost instead of a context that silently does nothing.
  bool robust_ext = c->display_->majorVersion() > 1 || c->display_->minorVersion() >= 5 ||
                    c->display_->hasExtension("EGL_EXT_create_context_robustness");
  struct Attempt {
    bool robust, lose_on_reset;
  };
  for (Attempt attempt :
       {Attempt{robust_ext, robust_ext}, Attempt{robust_ext, false}, Attempt{false, false}}) {
    const bool robust = attempt.robust;
    if (robust_ext && !robust) logInfo("robust context refused; using a plain one");
    EGLint attribs[16];
    int i = 0;
    attribs[i++] = EGL_CONTEXT_MAJOR_VERSION;
    attribs[i++] = 3;
    attribs[i++] = EGL_CONTEXT_MINOR_VERSION;
    attribs[i++] = 1;
    if (robust) {
      attribs[i++] = EGL_CONTEXT_OPENGL_ROBUST_ACCESS;
      attribs[i++] = EGL_TRUE;
    }
    if (attempt.lose_on_reset) {
      attribs[i++] = EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY;
      attribs[i++] = EGL_LOSE_CONTEXT_ON_RESET;
    }
    if (o.debug) {
      attribs[i++] = EGL_CONTEXT_OPENGL_DEBUG;
      attribs[i++] = EGL_TRUE;
    }
    attribs[i++] = EGL_NONE;
    c->context_ = eglCreateContext(dpy, config, EGL_NO_CONTEXT, attribs);
    if (c->context_ != EGL_NO_CONTEXT) {
      c->robust_ = robust;
      c->lose_context_on_reset_ = attempt.lose_on_reset;
      break;
    }
    if (!robust) break;
  }
  if (c->context_ == EGL_NO_CONTEXT)
    return fail(ErrorCode::kUnsupported, "cannot create an OpenGL ES 3.1 context (",
                eglErrorString(eglGetError()), "): esframe needs GLES 3.1 compute shaders");
  logDebug("EGL: context created");  // -vv's timeline: the driver's context, before current
  if (Status s = c->makeCurrent(); !s) return s.error();
  pinDriDrivers();

  glGetIntegerv(GL_MAJOR_VERSION, &c->gl_major_);
  glGetIntegerv(GL_MINOR_VERSION, &c->gl_minor_);
  if (c->gl_major_ * 10 + c->gl_minor_ < 31)
    return fail(ErrorCode::kUnsupported, "the context is OpenGL ES ", std::to_string(c->gl_major_),
                ".", std::to_string(c->gl_minor_), " (", c->version(), "): esframe needs 3.1");

  ComputeLimits& l = c->limits_;
  for (GLuint k = 0; k < 3; ++k) {
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, k, &l.work_group_count[k]);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, k, &l.work_group_size[k]);
  }
  glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &l.work_group_invocations);
  glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &l.shared_memory_size);
  glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &l.ssbo_bindings);
  glGetIntegerv(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &l.max_ssbo_size);
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &l.max_texture_size);
  glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &l.compute_storage_blocks);
  glGetIntegerv(GL_MAX_COMPUTE_IMAGE_UNIFORMS, &l.compute_image_uniforms);
  l.full_register_invocations = fullRegisterInvocations(c->renderer(), l.work_group_invocations);
  Result<GlLimits> setting = glLimitsSetting();
  if (!setting) return setting.error();
  if (setting.value() == GlLimits::kGles31Minimums) {
    clampToGles31Minimums(l);
    c->spec_minimums_ = true;
    logInfo("GL limits: the GLES 3.1 minimums, not the driver's (ESFRAME_GL_LIMITS=gles31-min)");
  }
  if (o.debug) enableDebugOutput(c->display_->procs());
  logDebug("GL context ready: " + c->renderer() + ", " + c->version());  // -vv's timeline
  return c;
}

GlContext::~GlContext() {
  if (context_ != EGL_NO_CONTEXT) {
    EGLDisplay dpy = display_->get();
    if (eglGetCurrentContext() == context_)
      eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, context_);
  }
}

Status GlContext::makeCurrent() const {
  if (!eglMakeCurrent(display_->get(), EGL_NO_SURFACE, EGL_NO_SURFACE, context_))
    return fail(ErrorCode::kGpu, "eglMakeCurrent failed (", eglErrorString(eglGetError()), ")");
  return {};
}

static std::string glString(GLenum name) {
  const GLubyte* s = glGetString(name);
  return s ? reinterpret_cast<const char*>(s) : "";
}
std::string GlContext::renderer() const {
  return glString(GL_RENDERER);
}
std::string GlContext::version() const {
  return glString(GL_VERSION);
}
std::string GlContext::glVendor() const {
  return glString(GL_VENDOR);
}
bool GlContext::isLlvmpipe() const {
  return renderer().find("llvmpipe") != std::string::npos;
}

bool GlContext::hasGlExtension(const char* name) const {
  GLint n = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &n);
  for (GLint i = 0; i < n; ++i) {
    const GLubyte* e = glGetStringi(GL_EXTENSIONS, GLuint(i));
    if (e && std::strcmp(reinterpret_cast<const char*>(e), name) == 0) return true;
  }
  return false;
}

}  // namespace esf
