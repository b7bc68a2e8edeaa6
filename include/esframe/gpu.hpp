#pragma once
// A GPU as libesframe opens it, without a pipeline: a headless EGL context with GLES 3.1
// compute, current on the thread that opened it, and what its EGL display and driver report.
// What examines a GPU (the selftest, the program check and tuning: esframe/gpu_checks.hpp,
// esframe/tuning.hpp) runs on one. A Pipeline opens its own from PipelineConfig::gpu.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/pipeline_config.hpp"

namespace esf {

// The driver's compute limits (glGetIntegerv), or under ESFRAME_GL_LIMITS=gles31-min the GLES
// 3.1 minimums.
struct ComputeLimits {
  int32_t work_group_count[3] = {0, 0, 0};
  int32_t work_group_size[3] = {0, 0, 0};
  int32_t work_group_invocations = 0;
  int32_t shared_memory_size = 0;
  int32_t ssbo_bindings = 0;
  int32_t max_ssbo_size = 0;
  int32_t max_texture_size = 0;
  int32_t compute_storage_blocks = 0;  // in one compute shader
  int32_t compute_image_uniforms = 0;
  // The most invocations a workgroup may have and still give each invocation the compiler's
  // whole register file: Midgard (Mali-T6xx to T8xx) has 16 work registers a thread, but runs
  // a workgroup of more than 64 invocations at once only with 8 (Mesa's midgard_ra.c), so a
  // program with many values live spills there. work_group_invocations where no such split is
  // known. A program that needs registers more than width takes its workgroup within this.
  int32_t full_register_invocations = 0;
};

// One shader stage's statistics as the driver's compiler printed them (esf::checkPrograms,
// esframe/gpu_checks.hpp); -1 where it printed no such figure.
struct ShaderStatistics {
  std::string stage;          // the driver's stage name: "CS", "MESA_SHADER_COMPUTE", "VS", ...
  int64_t instructions = -1;  // "inst"
  int64_t threads = -1;       // "threads" (v3d, Mali) or "waves" (Adreno)
  int64_t registers = -1;     // "registers" (Midgard), "max-temps" (v3d), "full" (Adreno)
  int64_t spills = -1, fills = -1;
  int64_t loops = -1;
  std::string line;  // the driver's own words
};

struct GpuExtension {
  std::string name;  // "EGL_EXT_image_dma_buf_import", "GL_KHR_debug"
  bool supported = false;
};

struct GpuInfo {
  EglPlatform platform = EglPlatform::kAuto;    // the platform opened (never kAuto)
  std::vector<std::string> platform_selection;  // why that platform: one line per platform tried
  std::string drm_node;                         // the DRM node behind the display; "" unknown
  std::string egl_vendor;
  int egl_major = 0, egl_minor = 0;
  std::string gl_vendor, gl_renderer, gl_version;  // GL_VENDOR, GL_RENDERER, GL_VERSION
  bool robust_access = false;
  bool loses_context_on_reset = false;  // EGL_LOSE_CONTEXT_ON_RESET
  ComputeLimits limits;
  bool spec_minimum_limits = false;  // the limits are the GLES 3.1 minimums (ESFRAME_GL_LIMITS)
  // The EGL, then the GL extensions esframe uses, each with whether the driver has it.
  std::vector<GpuExtension> extensions;
};

class ESF_API GpuContext {
 public:
  // Opens the GPU `config` names (the EGL platform, DRM node or EGL device) and makes its
  // context current on this thread. Errors name the platform or device that failed.
  static Result<std::unique_ptr<GpuContext>> open(const GpuConfig& config);
  ~GpuContext();
  GpuContext(const GpuContext&) = delete;
  GpuContext& operator=(const GpuContext&) = delete;

  const GpuConfig& config() const;
  Result<GpuInfo> info() const;
  // Makes the context current on this thread again (after a pipeline made its own current).
  Status makeCurrent();

  struct Impl;  // internal (platform/gpu_context_access.hpp)

 private:
  friend struct GpuContextAccess;
  explicit GpuContext(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// A DRM device node in /dev/dri whose driver answers.
struct DrmDevice {
  std::string path;    // /dev/dri/renderD128 or /dev/dri/card0
  std::string driver;  // the kernel driver: "v3d", "vgem", "vkms"
  bool render_node = false;
};
// Every DRM node in /dev/dri whose driver answers, render nodes first.
ESF_API Result<std::vector<DrmDevice>> listDrmDevices();

}  // namespace esf
