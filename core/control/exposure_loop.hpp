#pragma once
// The auto-exposure controller, apart from any camera: CameraControls is what it needs (the
// V4L2 one in v4l2_camera_controls.hpp; tests use a model camera).
//
// Each step compares the frame's measure (msv or mean luma) with the target. Outside the band,
// after `settle` frames since the last change, it moves one control: up, the first in order
// that is below its maximum (exposure before gain); down, the last above its minimum (gain
// before exposure). Exposure and gain are multiplicative: value * (target / measure)^damping,
// the ratio clamped to [1/4, 4]. Any other control is additive: value + damping * (target -
// measure) / metric span (4 for msv, 255 for the mean) * (max - min). Values snap to the
// control's step, stay in its range, and move at least one step.
#include <memory>
#include <string>
#include <vector>

#include "esframe/auto_exposure.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame_result.hpp"

namespace esf {

struct ControlRange {
  int64_t minimum = 0, maximum = 0, step = 1, value = 0;
};

class CameraControls {
 public:
  virtual ~CameraControls() = default;
  // ErrorCode::kNotFound when the camera has no control of that name.
  virtual Result<ControlRange> query(const std::string& name) = 0;
  virtual Status set(const std::string& name, int64_t value) = 0;
};

class ExposureLoop {
 public:
  // Picks the controls, switches auto_exposure to manual (1) and gain_automatic off where the
  // camera has them, and remembers every original value for restore().
  static Result<std::unique_ptr<ExposureLoop>> create(CameraControls& camera,
                                                      const AutoExposureOptions& options);
  ~ExposureLoop();
  Result<AutoExposureState> step(double measure);
  // Puts back every control it changed, the moved ones first, then the automatic modes. Once.
  Status restore();

 private:
  struct Actuator {
    std::string name;
    ControlRange range;
    bool multiplicative = false;
  };
  ExposureLoop(CameraControls& camera, const AutoExposureOptions& options)
      : camera_(camera), options_(options) {}
  Status move(Actuator& a, double wanted);

  CameraControls& camera_;
  AutoExposureOptions options_;
  std::vector<Actuator> actuators_;
  std::vector<ControlValue> originals_;  // the moved controls, then the automatic modes
  int since_change_ = 1 << 20;
  bool restored_ = false;
};

// The options' metric of one channel's stats.
double exposureMeasure(const ChannelStats& luma, ExposureMetric metric);

}  // namespace esf
