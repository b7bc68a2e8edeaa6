#include "apps/esframe/cli_common.hpp"

#include "esframe/base/log.hpp"

namespace esf::cli {

void addGlobalOptions(CLI::App& app, GlobalOptions& o) {
  app.add_option("--egl", o.egl, "EGL platform: auto, gbm, device or surfaceless")
      ->check(CLI::IsMember({"auto", "gbm", "device", "surfaceless"}))
      ->capture_default_str();
  app.add_option("--drm-device", o.drm_device,
                 "DRM node for gbm: a path (/dev/dri/renderD128) or a driver name (v3d)");
  app.add_option("--egl-device", o.egl_device,
                 "EGL device for the device platform: index or DRM node path");
  app.add_flag("--gl-debug", o.gl_debug, "Log GL_KHR_debug messages");
  app.add_flag("-v,--verbose", o.verbose, "More log output (repeat for debug)");
}

void applyLogLevel(const GlobalOptions& o) {
  if (o.verbose >= 2)
    setLogLevel(LogLevel::kDebug);
  else if (o.verbose == 1)
    setLogLevel(LogLevel::kInfo);
}

Result<GpuConfig> gpuConfig(const GlobalOptions& o) {
  Result<EglPlatform> platform = parseEglPlatform(o.egl);
  if (!platform) return platform.error();
  GpuConfig c;
  c.platform = platform.value();
  c.drm_device = o.drm_device;
  c.egl_device = o.egl_device;
  c.debug = o.gl_debug;
  return c;
}

Result<std::unique_ptr<GpuContext>> openGpu(const GlobalOptions& o) {
  Result<GpuConfig> c = gpuConfig(o);
  if (!c) return c.error();
  return GpuContext::open(c.value());
}

}  // namespace esf::cli
