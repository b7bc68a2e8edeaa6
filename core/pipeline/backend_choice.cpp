#include "core/pipeline/backend_choice.hpp"

namespace esf {

bool isSoftwareRenderer(std::string_view gl_renderer) {
  for (std::string_view software : {"llvmpipe", "softpipe", "swrast"})
    if (gl_renderer.find(software) != std::string_view::npos) return true;
  return false;
}

BackendChoice chooseAutoBackend(const Result<std::unique_ptr<GlContext>>& gl) {
  if (!gl) return {Backend::kCpu, "no GLES 3.1 compute context: " + gl.error().message};
  const std::string renderer = gl.value()->renderer();
  if (isSoftwareRenderer(renderer))
    return {Backend::kCpu, "the GL renderer " + renderer + " is software"};
  return {Backend::kGles, "the GL renderer " + renderer + " is a GPU with GLES 3.1 compute"};
}

GlContextOptions glContextOptions(const PipelineConfig& config) {
  GlContextOptions options;
  options.egl.platform = config.gpu.platform;
  options.egl.drm_device = config.gpu.drm_device;
  options.egl.egl_device = config.gpu.egl_device;
  options.debug = config.gpu.debug;
  return options;
}

}  // namespace esf
