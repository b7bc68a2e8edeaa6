#pragma once
// Options every esframe command shares, and the documented exit codes.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "esframe/gpu.hpp"
#include "esframe/pipeline_config.hpp"

namespace esf::cli {

// Exit codes (README "Exit codes").
enum ExitCode : int {  // docs: README "Exit codes"
  kExitOk = 0,
  kExitFailure = 1,     // runtime error: EGL/GL, file, device
  kExitUsage = 2,       // bad command line
  kExitDeviceLost = 3,  // the capture device vanished mid-stream (ENODEV, EIO, unplug)
  kExitGpuLost = 4,     // the GPU hung past its watchdog or its context was lost (a reset)
  kExitTruncated = 5,   // a file or stream ended inside a frame (after the whole frames)
};

struct GlobalOptions {
  std::string egl = "auto";
  std::string drm_device;
  std::string egl_device;
  bool gl_debug = false;
  int verbose = 0;
};

void addGlobalOptions(CLI::App& app, GlobalOptions& options);
// Applies --verbose to the log level.
void applyLogLevel(const GlobalOptions& options);
// The library's GpuConfig from the global options; fails on a bad --egl value.
Result<GpuConfig> gpuConfig(const GlobalOptions& options);
// Opens the GPU the options ask for.
Result<std::unique_ptr<GpuContext>> openGpu(const GlobalOptions& options);

}  // namespace esf::cli
