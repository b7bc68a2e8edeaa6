#include <utility>

#include "base/api_guard.hpp"
#include "esframe/gpu.hpp"
#include "platform/drm_device.hpp"
#include "platform/gpu_context_access.hpp"

namespace esf {

GpuContext::GpuContext(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GpuContext::~GpuContext() = default;

Result<std::unique_ptr<GpuContext>> GpuContext::open(const GpuConfig& config) {
  return guard("GpuContext::open", [&]() -> Result<std::unique_ptr<GpuContext>> {
    Result<std::unique_ptr<GlContext>> gl = GlContext::create(glContextOptions(config));
    if (!gl) return gl.error();
    auto impl = std::make_unique<Impl>();
    impl->config = config;
    impl->gl = std::move(gl.value());
    return std::unique_ptr<GpuContext>(new GpuContext(std::move(impl)));
  });
}

const GpuConfig& GpuContext::config() const {
  return impl_->config;
}

Result<GpuInfo> GpuContext::info() const {
  return guard("GpuContext::info", [&]() -> Result<GpuInfo> {
    const GlContext& ctx = *impl_->gl;
    const EglDisplay& d = ctx.display();
    GpuInfo g;
    g.platform = d.platform();
    g.platform_selection = d.selectionLog();
    g.drm_node = d.drmNodePath();
    g.egl_vendor = d.vendor();
    g.egl_major = d.majorVersion();
    g.egl_minor = d.minorVersion();
    g.gl_vendor = ctx.glVendor();
    g.gl_renderer = ctx.renderer();
    g.gl_version = ctx.version();
    g.robust_access = ctx.robustAccess();
    g.loses_context_on_reset = ctx.losesContextOnReset();
    g.limits = ctx.limits();
    g.spec_minimum_limits = ctx.specMinimumLimits();
    for (const char* e : {"EGL_EXT_image_dma_buf_import", "EGL_EXT_image_dma_buf_import_modifiers",
                          "EGL_KHR_image_base", "EGL_KHR_surfaceless_context",
                          "EGL_KHR_no_config_context", "EGL_MESA_image_dma_buf_export"})
      g.extensions.push_back({e, d.hasExtension(e)});
    for (const char* e :
         {"GL_OES_EGL_image", "GL_OES_EGL_image_external", "GL_OES_EGL_image_external_essl3",
          "GL_EXT_disjoint_timer_query", "GL_KHR_debug", "GL_EXT_robustness", "GL_KHR_robustness"})
      g.extensions.push_back({e, ctx.hasGlExtension(e)});
    return g;
  });
}

Status GpuContext::makeCurrent() {
  return impl_->gl->makeCurrent();
}

Result<std::vector<DrmDevice>> listDrmDevices() {
  return guard("listDrmDevices", []() -> Result<std::vector<DrmDevice>> {
    std::vector<DrmDevice> devices;
    for (const DrmNode& n : listDrmNodes()) devices.push_back({n.path, n.driver, n.is_render_node});
    return devices;
  });
}

}  // namespace esf
