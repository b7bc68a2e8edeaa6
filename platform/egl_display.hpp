#pragma once
// Headless EGL displays on three platforms, and `auto` selection between them:
//  - gbm:         a DRM node -> gbm_device -> EGL_PLATFORM_GBM_KHR (embedded boards, vgem, vkms)
//  - device:      EGL_EXT_device_enumeration + EGL_EXT_platform_device (NVIDIA headless)
//  - surfaceless: EGL_MESA_platform_surfaceless (Mesa llvmpipe with no devices at all)
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <memory>
#include <string>
#include <vector>

#include "esframe/pipeline_config.hpp"
#include "platform/egl_procs.hpp"
#include "platform/gbm_device.hpp"

namespace esf {

// EglPlatform: esframe/pipeline_config.hpp.

struct EglOptions {
  EglPlatform platform = EglPlatform::kAuto;
  std::string drm_device;  // gbm: path or driver name; empty = first working render node
  std::string egl_device;  // device: index ("0") or DRM node name; empty = first hardware one
};

// An initialized EGLDisplay. Terminates it when the last owner of that display goes away.
class EglDisplay {
 public:
  static Result<std::unique_ptr<EglDisplay>> open(const EglOptions& options);
  ~EglDisplay();
  EglDisplay(const EglDisplay&) = delete;
  EglDisplay& operator=(const EglDisplay&) = delete;

  EGLDisplay get() const { return display_; }
  EglPlatform platform() const { return platform_; }
  // Why this platform was chosen, and why each one tried before it was skipped.
  const std::vector<std::string>& selectionLog() const { return selection_log_; }
  // The DRM node behind the display, when known ("" otherwise).
  std::string drmNodePath() const;
  std::string drmDriver() const;
  GbmDevice* gbm() const { return gbm_.get(); }  // null unless platform is gbm

  int majorVersion() const { return major_; }
  int minorVersion() const { return minor_; }
  std::string vendor() const;
  std::string extensions() const;
  bool hasExtension(const char* name) const;
  // The extension entry points, looked up once when the display was initialized.
  const EglProcs& procs() const { return procs_; }

 private:
  EglDisplay() = default;
  std::unique_ptr<GbmDevice> gbm_;  // must outlive display_
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EglPlatform platform_ = EglPlatform::kSurfaceless;
  std::vector<std::string> selection_log_;
  std::string device_drm_path_;
  int major_ = 0, minor_ = 0;
  EglProcs procs_;

  friend struct EglDisplayOpener;
};

// EGL client extensions (no display), e.g. EGL_EXT_platform_device.
bool hasEglClientExtension(const char* name);
const char* eglErrorString(EGLint error);

}  // namespace esf
