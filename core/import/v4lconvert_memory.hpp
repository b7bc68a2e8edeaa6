#pragma once
// libv4lconvert over frames already in memory: it wants a device, so the converter gets one that
// answers QUERYCAP (a capture device) and refuses everything else. The MJPEG decoder and the
// tests that hold the CPU reference against libv4lconvert make theirs here.
#include <memory>

struct v4lconvert_data;

namespace esf {

struct V4lconvertDeleter {
  void operator()(v4lconvert_data* data) const;
};
using V4lconvert = std::unique_ptr<v4lconvert_data, V4lconvertDeleter>;

// A converter without a device; null when libv4lconvert cannot make one.
V4lconvert v4lconvertInMemory();

}  // namespace esf
