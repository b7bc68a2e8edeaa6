#include "core/pipeline/backend_choice.hpp"

#include <cstdio>

#include "core/tuning/backend_comparison.hpp"

namespace esf {

bool isSoftwareRenderer(std::string_view gl_renderer) {
  for (std::string_view software : {"llvmpipe", "softpipe", "swrast"})
    if (gl_renderer.find(software) != std::string_view::npos) return true;
  return false;
}

BackendChoice chooseAutoBackend(const Result<std::unique_ptr<GlContext>>& gl) {
  return gl ? chooseAutoBackend(*gl.value()) : chooseAutoBackendWithoutGpu(gl.error());
}

BackendChoice chooseAutoBackendWithoutGpu(const Error& error) {
  return {Backend::kCpu, "no GLES 3.1 compute context: " + error.message};
}

BackendChoice chooseAutoBackend(const GlContext& gl) {
  const std::string renderer = gl.renderer();
  if (isSoftwareRenderer(renderer))
    return {Backend::kCpu, "the GL renderer " + renderer + " is software"};
  return {Backend::kGles, "the GL renderer " + renderer + " is a GPU with GLES 3.1 compute"};
}

std::string stageChainOf(const PipelineConfig& config) {
  return stageChain(config.blur.has_value(), config.resize.has_value(), config.scopes.any());
}

BackendChoice chooseTunedBackend(const BackendChoice& rule, const TuningCache& cache,
                                 const DeviceKey& device, const PipelineConfig& config, int width,
                                 int height) {
  const std::string chain = stageChainOf(config);
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  const std::optional<BackendRecord> record =
      findBackendRecord(cache, device, chain, width, height);
  if (!record)
    return {rule.backend, rule.reason + " (the tuning cache has no " + chain + " record for " +
                              size + "'s size class " + sizeClass(width, height) + ")"};
  char times[96];
  std::snprintf(times, sizeof times, "cpu %.2f ms, gles %.2f ms", record->cpu_ms, record->gles_ms);
  return {record->backend == "cpu" ? Backend::kCpu : Backend::kGles,
          "the tuning cache: " + chain + " on " + record->frame + " frames took " + times +
              " here (esframe tune, " + record->tuned_at + ")"};
}

GlContextOptions glContextOptions(const PipelineConfig& config) {
  return glContextOptions(config.gpu);
}

}  // namespace esf
