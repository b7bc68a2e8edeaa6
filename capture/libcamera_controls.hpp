#pragma once
// --ctrl NAME=VALUE and --fps in libcamera's terms: a control looked up by its libcamera name in
// the camera's ControlInfoMap, its text parsed by the control's type and checked against its range.
#include <libcamera/controls.h>

#include <string>
#include <utility>

#include "esframe/base/result.hpp"

namespace esf {

// `text` as a value of control `id`: bool (0, 1, true, false), byte, int32, int64 or float, within
// [info.min(), info.max()] where the camera gives a range. Arrays, strings, rectangles:
// unsupported.
Result<libcamera::ControlValue> parseLibcameraControlValue(const libcamera::ControlId& id,
                                                           const libcamera::ControlInfo& info,
                                                           const std::string& text);

// The control called `name` among the camera's, with `value` parsed. Errors name the camera and
// list the controls it has.
Result<std::pair<const libcamera::ControlId*, libcamera::ControlValue>> resolveLibcameraControl(
    const libcamera::ControlInfoMap& controls, const std::string& camera, const std::string& name,
    const std::string& value);

// FrameDurationLimits {d, d} in microseconds for `fps` frames per second.
int64_t frameDurationMicroseconds(double fps);

}  // namespace esf
