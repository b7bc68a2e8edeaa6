#include "platform/egl_display.hpp"

#include <cstdlib>
#include <map>
#include <mutex>

#include "base/api_guard.hpp"
#include "esframe/base/log.hpp"
#include "platform/code_names.hpp"

namespace esf {
namespace {

bool hasToken(const char* list, const char* name) {
  return hasExtensionToken(list, name);
}

// eglGetPlatformDisplay returns the same handle for the same native display, and eglTerminate
// would pull it from under every other owner: count owners per handle.
std::mutex g_refs_mutex;
std::map<EGLDisplay, int> g_display_refs;

}  // namespace

const char* eglErrorString(EGLint e) {
  static constexpr CodeName kErrors[] = {
      ESF_CODE_NAME(EGL_SUCCESS),       ESF_CODE_NAME(EGL_NOT_INITIALIZED),
      ESF_CODE_NAME(EGL_BAD_ACCESS),    ESF_CODE_NAME(EGL_BAD_ALLOC),
      ESF_CODE_NAME(EGL_BAD_ATTRIBUTE), ESF_CODE_NAME(EGL_BAD_CONFIG),
      ESF_CODE_NAME(EGL_BAD_CONTEXT),   ESF_CODE_NAME(EGL_BAD_DISPLAY),
      ESF_CODE_NAME(EGL_BAD_MATCH),     ESF_CODE_NAME(EGL_BAD_PARAMETER),
      ESF_CODE_NAME(EGL_BAD_SURFACE),   ESF_CODE_NAME(EGL_CONTEXT_LOST)};
  return codeName(e, kErrors, "EGL error");
}

bool hasEglClientExtension(const char* name) {
  return hasToken(eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS), name);
}

// Mesa 22.3's zink on a CPU Vulkan driver (lavapipe) inlines the uniforms that steer a compute
// shader's branches and loops into per-value variants, and kept a stale variant after such a
// uniform changed between dispatches (another YUV layout's conversion, a histogram chunk sum over
// one chunk). ZINK_INLINE_UNIFORMS=false turns that inlining off; a value the user set stays. Mesa
// reads it when it creates a screen (a GBM device, eglInitialize); other drivers ignore it.
namespace {
void keepZinkUniformsUninlined() {
  ::setenv("ZINK_INLINE_UNIFORMS", "false", /*overwrite=*/0);
}
}  // namespace

struct EglDisplayOpener {
  std::unique_ptr<EglDisplay> d{new EglDisplay()};

  Status initialize(EGLDisplay dpy, const char* what) {
    if (dpy == EGL_NO_DISPLAY)
      return fail(ErrorCode::kGpu, what, ": eglGetPlatformDisplay failed (",
                  eglErrorString(eglGetError()), ")");
    if (!eglInitialize(dpy, &d->major_, &d->minor_))
      return fail(ErrorCode::kGpu, what, ": eglInitialize failed (", eglErrorString(eglGetError()),
                  ")");
    std::lock_guard lock(g_refs_mutex);
    ++g_display_refs[dpy];
    d->display_ = dpy;
    d->procs_ = EglProcs::load(dpy);
    return {};
  }

  Status tryGbm(const std::string& spec) {
    Result<OpenedDrmNode> node = Error{};
    if (!spec.empty()) {
      node = openDrmNode(spec);
    } else {
      std::vector<DrmNode> nodes = listDrmNodes();
      if (nodes.empty()) return fail(ErrorCode::kNotFound, "gbm: no DRM device in /dev/dri");
      node = openDrmPath(nodes.front().path);
    }
    if (!node) return node.error();
    // Checked after the node so a wrong --drm-device is reported as such first.
    if (!hasEglClientExtension("EGL_KHR_platform_gbm") &&
        !hasEglClientExtension("EGL_MESA_platform_gbm"))
      return fail(ErrorCode::kUnsupported, "gbm: EGL has no EGL_KHR_platform_gbm");
    std::string path = node->node.path;
    Result<std::unique_ptr<GbmDevice>> gbm = GbmDevice::create(std::move(node.value()));
    if (!gbm) return gbm.error();
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_GBM_KHR, gbm.value()->get(), nullptr);
    if (Status s = initialize(dpy, ("gbm on " + path).c_str()); !s) return s;
    d->gbm_ = std::move(gbm.value());
    d->platform_ = EglPlatform::kGbm;
    d->selection_log_.push_back("gbm: " + path + " (" + d->gbm_->node().driver + ")");
    return {};
  }

  Status tryDevice(const std::string& spec, bool hardware_only) {
    // NVIDIA advertises EGL_EXT_device_base, which includes enumeration and query.
    bool enumeration = hasEglClientExtension("EGL_EXT_device_enumeration") ||
                       hasEglClientExtension("EGL_EXT_device_base");
    if (!enumeration || !hasEglClientExtension("EGL_EXT_platform_device"))
      return fail(ErrorCode::kUnsupported,
                  "device: EGL has no EGL_EXT_device_enumeration/EGL_EXT_platform_device");
    const auto queryDevices = eglClientProcs().queryDevices;
    const auto queryString = eglClientProcs().queryDeviceString;
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!queryDevices || !queryString || !queryDevices(16, devices, &count) || count == 0)
      return fail(ErrorCode::kNotFound, "device: no EGL devices");
    std::string skipped;
    for (EGLint i = 0; i < count; ++i) {
      const char* exts = queryString(devices[i], EGL_EXTENSIONS);
      const char* drm = hasToken(exts, "EGL_EXT_device_drm")
                            ? queryString(devices[i], EGL_DRM_DEVICE_FILE_EXT)
                            : nullptr;
      const char* render = hasToken(exts, "EGL_EXT_device_drm_render_node")
                               ? queryString(devices[i], EGL_DRM_RENDER_NODE_FILE_EXT)
                               : nullptr;
      std::string name = render ? render : (drm ? drm : "");
      if (!spec.empty()) {
        bool match =
            spec == std::to_string(i) || (drm && spec == drm) || (render && spec == render);
        if (!match) continue;
      } else if (hardware_only && hasToken(exts, "EGL_MESA_device_software")) {
        skipped = "device " + std::to_string(i) + " is Mesa's software device";
        continue;
      }
      EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
      std::string what = "device " + std::to_string(i) + (name.empty() ? "" : " (" + name + ")");
      if (Status s = initialize(dpy, what.c_str()); !s) return s;
      d->platform_ = EglPlatform::kDevice;
      d->device_drm_path_ = name;
      d->selection_log_.push_back("device: EGL device " + std::to_string(i) + " of " +
                                  std::to_string(count) + (name.empty() ? "" : ", " + name));
      return {};
    }
    if (!spec.empty())
      return fail(ErrorCode::kNotFound, "device: no EGL device matches '", spec, "'");
    return fail(ErrorCode::kNotFound, "device: no hardware EGL device (", skipped, ")");
  }

  Status trySurfaceless() {
    if (!hasEglClientExtension("EGL_MESA_platform_surfaceless"))
      return fail(ErrorCode::kUnsupported, "surfaceless: EGL has no EGL_MESA_platform_surfaceless");
    EGLDisplay dpy =
        eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (Status s = initialize(dpy, "surfaceless"); !s) return s;
    d->platform_ = EglPlatform::kSurfaceless;
    d->selection_log_.push_back("surfaceless: Mesa surfaceless platform");
    return {};
  }
};

Result<std::unique_ptr<EglDisplay>> EglDisplay::open(const EglOptions& o) {
  keepZinkUniformsUninlined();  // before any platform creates a screen
  EglDisplayOpener op;
  switch (o.platform) {
    case EglPlatform::kGbm:
      if (Status s = op.tryGbm(o.drm_device); !s) return s.error();
      break;
    case EglPlatform::kDevice:
      if (Status s = op.tryDevice(o.egl_device, false); !s) return s.error();
      break;
    case EglPlatform::kSurfaceless:
      if (Status s = op.trySurfaceless(); !s) return s.error();
      break;
    case EglPlatform::kAuto: {
      // Hardware first: a DRM node through GBM, then a hardware EGL device, then Mesa's
      // surfaceless platform. Each skip is recorded for `esframe info`.
      std::vector<std::string> skipped;
      Status s = op.tryGbm(o.drm_device);
      if (!s && o.drm_device.empty()) {
        skipped.push_back("skipped " + s.error().message);
        s = op.tryDevice(o.egl_device, true);
        if (!s) {
          skipped.push_back("skipped " + s.error().message);
          s = op.trySurfaceless();
        }
      }
      if (!s) return s.error();
      skipped.insert(skipped.end(), op.d->selection_log_.begin(), op.d->selection_log_.end());
      op.d->selection_log_ = std::move(skipped);
      break;
    }
  }
  for (const std::string& line : op.d->selection_log_) logDebug("EGL " + line);
  return std::move(op.d);
}

EglDisplay::~EglDisplay() {
  if (display_ == EGL_NO_DISPLAY) return;
  std::lock_guard lock(g_refs_mutex);
  if (--g_display_refs[display_] == 0) {
    g_display_refs.erase(display_);
    eglTerminate(display_);
    logDebug("EGL: display terminated");  // -vv's timeline: what teardown costs
  }
}

std::string EglDisplay::drmNodePath() const {
  return gbm_ ? gbm_->node().path : device_drm_path_;
}
std::string EglDisplay::drmDriver() const {
  return gbm_ ? gbm_->node().driver : "";
}

std::string EglDisplay::vendor() const {
  const char* v = eglQueryString(display_, EGL_VENDOR);
  return v ? v : "";
}
std::string EglDisplay::extensions() const {
  const char* v = eglQueryString(display_, EGL_EXTENSIONS);
  return v ? v : "";
}
bool EglDisplay::hasExtension(const char* name) const {
  return hasToken(eglQueryString(display_, EGL_EXTENSIONS), name);
}

}  // namespace esf
