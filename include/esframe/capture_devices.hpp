#pragma once
// The capture devices of this machine as `esframe info` shows them, and the libcamera source
// spec checked before anything opens (esframe/source.hpp lists the specs).
#include <string>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"

namespace esf {

// One listing in two forms: `json`, a JSON document (an array of devices; the libcamera
// listing's {"error": ...} when its module does not load), and `text`, the same as lines for
// people, each ending in '\n'.
struct DeviceListing {
  std::string json;
  std::string text;
};

// Every V4L2 capture device with its formats, frame sizes, frame intervals and controls.
ESF_API Result<DeviceListing> listV4l2Devices();

// Whether this build has libcamera support.
ESF_API bool libcameraBuilt();
// libcamera's cameras with their streams, formats, sizes and controls (a build with libcamera).
ESF_API Result<DeviceListing> listLibcameraCameras();

// Whether `spec` names a libcamera camera: "libcamera" (the first camera) or "libcamera:ID".
ESF_API bool isLibcameraSourceSpec(const std::string& spec);
// Whether libcamera can be used now: built with it, and its module loads. kUnsupported saying
// why not.
ESF_API Status libcameraUsable();
// The camera id of a libcamera spec: "" for the first camera; kInvalidArgument for
// "libcamera:" (no id) and for a spec that is not libcamera's.
ESF_API Result<std::string> libcameraSourceCameraId(const std::string& spec);

}  // namespace esf
