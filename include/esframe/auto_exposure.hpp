#pragma once
// Closed-loop auto-exposure (--auto-exposure): each frame's luma statistics drive a V4L2
// camera's own controls toward a target (docs/output-formats.md, "auto_exposure").
#include <memory>
#include <string>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/sink.hpp"

namespace esf {

enum class ExposureMetric {
  kMsv,   // libcamera's AGC: the mean of the luma histogram's 5 equal regions, 1..5
  kMean,  // the mean luma, 0..255
};

struct AutoExposureOptions {
  ExposureMetric metric = ExposureMetric::kMsv;
  double target = 2.5;   // msv 2.5 (libcamera's target); for kMean e.g. 118
  double band = 0.1;     // converged while |measure - target| <= band
  double damping = 0.5;  // the share of the computed correction applied per step, (0, 1]
  int settle = 3;        // frames to wait after a change (frames already queued show the old value)
  // The controls moved, in order; empty: exposure (exposure_time_absolute or exposure_absolute),
  // then gain (gain or analogue_gain). Any integer control by its v4l2-ctl name, e.g. brightness.
  std::string control;
};

// Opens `device` (the V4L2 source's path) for its controls, switches the camera's automatic
// exposure and gain off, and returns the loop as a sink: it adjusts the controls in annotate()
// and restores every control it touched in finish() (also on SIGTERM, which ends the run
// cleanly) or when destroyed.
ESF_API Result<std::unique_ptr<FrameSink>> createAutoExposure(const std::string& device,
                                                              const AutoExposureOptions& options);

}  // namespace esf
