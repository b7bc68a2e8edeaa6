#pragma once
// Backend::kAuto, resolved: the GLES stages on a hardware GPU with GLES 3.1 compute, the CPU
// executor when the renderer is software (Mesa llvmpipe, softpipe: slower than the executor on
// the same cores) or when no GLES 3.1 context can be made (a Raspberry Pi 3's VideoCore IV, a
// headless server). The reason is one line for the log, Pipeline::backendDescription() and
// `esframe info`.
#include <memory>
#include <string>
#include <string_view>

#include "core/tuning/tuning_cache.hpp"
#include "esframe/base/result.hpp"
#include "esframe/pipeline_config.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct BackendChoice {
  Backend backend = Backend::kGles;  // kGles or kCpu
  std::string reason;                // "the GL renderer llvmpipe (...) is software", ...
};

// True for renderers that run the shaders on the CPU: llvmpipe, softpipe, swrast.
bool isSoftwareRenderer(std::string_view gl_renderer);

// What kAuto picks given the result of opening the GPU.
BackendChoice chooseAutoBackend(const Result<std::unique_ptr<GlContext>>& gl);
// The same for a GPU that opened, and for one that did not (`error` says why).
BackendChoice chooseAutoBackend(const GlContext& gl);
BackendChoice chooseAutoBackendWithoutGpu(const Error& error);

// The stage chain of a configuration, as `esframe tune --stages backend` keys its records.
std::string stageChainOf(const PipelineConfig& config);

// kAuto after `esframe tune --stages backend` (core/tuning/backend_comparison.hpp): the record of
// this GPU, the configuration's stage chain and the frame's size class decides; without one,
// `rule` (chooseAutoBackend) stands and the reason says that no record matched.
BackendChoice chooseTunedBackend(const BackendChoice& rule, const TuningCache& cache,
                                 const DeviceKey& device, const PipelineConfig& config, int width,
                                 int height);

// The GL context options of a pipeline configuration.
GlContextOptions glContextOptions(const PipelineConfig& config);

}  // namespace esf
