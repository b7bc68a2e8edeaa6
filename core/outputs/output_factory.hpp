#pragma once
// --output SPEC -> a FrameOutput. SPEC: jsonl | csv[:bins] | bin | png:DIR[,every=N] |
// drm[:connector=NAME,plane=ID,zpos=N,rect=X,Y,W,H]. The drm output lives in drm_output.*.
#include <memory>
#include <string>

#include "core/outputs/frame_output.hpp"

namespace esf {

class GlContext;

struct OutputContext {
  GlContext* gl = nullptr;  // null with --backend cpu
  std::string drm_device;   // --drm-device, for the drm output
};

// Checks SPEC's syntax only (for command-line validation before anything is opened).
Status checkOutputSpec(const std::string& spec);
// jsonl, csv and bin write to stdout: a run takes at most one of them.
bool writesStdout(const std::string& spec);
Result<std::unique_ptr<FrameOutput>> createOutput(const std::string& spec,
                                                  const OutputContext& context);

// Provided by drm_output.cpp (the DRM/KMS output); `options` is SPEC after "drm" and its ':'
// ("" or "connector=HDMI-A-1,zpos=3"). The factory calls these when drm_output.hpp exists.
Status checkDrmOutputOptions(const std::string& options);
Result<std::unique_ptr<FrameOutput>> createDrmOutput(const std::string& options,
                                                     const OutputContext& context);

}  // namespace esf
