#pragma once
// The capture section of `esframe info`: every V4L2 capture device with its formats, frame
// sizes, frame intervals and controls.
#include <nlohmann/json.hpp>
#include <string>

namespace esf {

nlohmann::json describeCaptureDevices();
std::string captureDevicesText(const nlohmann::json& devices);

}  // namespace esf
