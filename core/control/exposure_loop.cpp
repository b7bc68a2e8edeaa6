#include "core/control/exposure_loop.hpp"

#include <algorithm>
#include <cmath>

namespace esf {
namespace {

constexpr const char* kExposureNames[] = {"exposure_time_absolute", "exposure_absolute"};
constexpr const char* kGainNames[] = {"gain", "analogue_gain"};
// The camera's own loops and the value that switches each off.
struct AutoMode {
  const char* name;
  int64_t off;
};
constexpr AutoMode kAutoModes[] = {{"auto_exposure", 1 /* V4L2_EXPOSURE_MANUAL */},
                                   {"gain_automatic", 0}};

}  // namespace

double exposureMeasure(const ChannelStats& luma, ExposureMetric metric) {
  return metric == ExposureMetric::kMsv ? luma.msv : luma.mean;
}

Result<std::unique_ptr<ExposureLoop>> ExposureLoop::create(CameraControls& camera,
                                                           const AutoExposureOptions& options) {
  if (!(options.damping > 0 && options.damping <= 1))
    return fail(ErrorCode::kInvalidArgument, "auto-exposure: damping must be in (0, 1]");
  if (!(options.band >= 0) || options.settle < 0)
    return fail(ErrorCode::kInvalidArgument, "auto-exposure: band and settle must be >= 0");
  std::unique_ptr<ExposureLoop> loop(new ExposureLoop(camera, options));
  auto add = [&](const std::string& name, bool multiplicative) -> Result<bool> {
    Result<ControlRange> r = camera.query(name);
    if (!r) {
      if (r.error().code == ErrorCode::kNotFound) return false;
      return r.error();
    }
    if (r->maximum <= r->minimum)
      return fail(ErrorCode::kUnsupported, "auto-exposure: control '", name, "' has no range");
    r->step = std::max<int64_t>(r->step, 1);
    loop->actuators_.push_back({name, r.value(), multiplicative});
    loop->originals_.push_back({name, r->value});
    return true;
  };
  if (!options.control.empty()) {
    Result<bool> found = add(options.control, false);
    if (!found) return found.error();
    if (!*found)
      return fail(ErrorCode::kNotFound, "auto-exposure: the camera has no control named '",
                  options.control, "'");
  } else {
    for (const auto* names : {kExposureNames, kGainNames}) {
      for (const char* name : {names[0], names[1]}) {
        Result<bool> found = add(name, true);
        if (!found) return found.error();
        if (*found) break;
      }
    }
    if (loop->actuators_.empty())
      return fail(ErrorCode::kNotFound,
                  "auto-exposure: the camera has no exposure or gain control (name one with "
                  "control=NAME)");
  }
  for (const AutoMode& mode : kAutoModes) {
    Result<ControlRange> r = camera.query(mode.name);
    if (!r) continue;  // no such loop on this camera
    loop->originals_.push_back({mode.name, r->value});
    if (r->value == mode.off) continue;
    if (Status s = camera.set(mode.name, mode.off); !s) {
      (void)loop->restore();
      return s.error();
    }
  }
  return loop;
}

ExposureLoop::~ExposureLoop() {
  (void)restore();
}

Status ExposureLoop::move(Actuator& a, double wanted) {
  const ControlRange& r = a.range;
  const double steps = std::round((wanted - double(r.minimum)) / double(r.step));
  int64_t next = std::clamp<int64_t>(r.minimum + int64_t(steps) * r.step, r.minimum, r.maximum);
  // At least one step in the wanted direction: rounding must not stall the loop.
  if (wanted > double(r.value) && next <= r.value) next = std::min(r.value + r.step, r.maximum);
  if (wanted < double(r.value) && next >= r.value) next = std::max(r.value - r.step, r.minimum);
  if (next == r.value) return Status::success();
  if (Status s = camera_.set(a.name, next); !s) return s;
  a.range.value = next;
  since_change_ = 0;
  return Status::success();
}

Result<AutoExposureState> ExposureLoop::step(double measure) {
  AutoExposureState state;
  for (const Actuator& a : actuators_) state.controls.push_back({a.name, a.range.value});
  state.measure = measure;
  state.target = options_.target;
  state.converged = std::fabs(measure - options_.target) <= options_.band;
  if (state.converged || since_change_++ < options_.settle) return state;
  const bool up = measure < options_.target;
  Actuator* chosen = nullptr;
  if (up) {
    for (Actuator& a : actuators_)
      if (!chosen && a.range.value < a.range.maximum) chosen = &a;
  } else {
    for (Actuator& a : actuators_)
      if (a.range.value > a.range.minimum) chosen = &a;
  }
  if (!chosen) return state;  // every control at its limit
  const ControlRange& r = chosen->range;
  double wanted;
  if (chosen->multiplicative) {
    const double ratio = measure > 0 ? std::clamp(options_.target / measure, 0.25, 4.0) : 4.0;
    wanted = double(std::max<int64_t>(r.value, 1)) * std::pow(ratio, options_.damping);
  } else {
    const double span = options_.metric == ExposureMetric::kMsv ? 4.0 : 255.0;
    wanted = double(r.value) +
             options_.damping * (options_.target - measure) / span * double(r.maximum - r.minimum);
  }
  if (Status s = move(*chosen, wanted); !s) return s.error();
  return state;
}

Status ExposureLoop::restore() {
  if (restored_) return Status::success();
  restored_ = true;
  Status first = Status::success();
  // The moved controls first, while the camera is still in manual mode (a UVC camera refuses
  // exposure_time_absolute once auto_exposure is back on), then the automatic modes.
  for (const ControlValue& original : originals_) {
    Status s = camera_.set(original.name, original.value);
    if (!s && first) first = s;
  }
  return first;
}

}  // namespace esf
