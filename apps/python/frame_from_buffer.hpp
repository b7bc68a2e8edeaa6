#pragma once
// A numpy array (or any object with the buffer protocol) as an esf::Frame: the planes point into
// the array's memory when its strides fit the format, else into one C-contiguous copy
// (numpy.ascontiguousarray) that the InputFrame keeps.
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "esframe/frame.hpp"

namespace esf::python {

struct FrameMetadata {
  std::optional<std::string> format;  // a PixelFormat name; none: from the array's shape
  std::string colorimetry = "bt601";  // "bt601" or "bt709": YUV frames
  bool full_range = false;
  uint64_t seq = 0;
  uint64_t ts_ns = 0;
  std::string source = "array";
};

struct InputFrame {
  Frame frame;
  bool copied = false;  // one plane or more came from a contiguous copy
  // The buffers the planes point into; released with the GIL held (the destructor's caller).
  std::vector<pybind11::buffer_info> views;
  std::vector<pybind11::object> owners;
};

// Raises esframe.Error (invalid-argument, unsupported) for an array that cannot be the format.
// `input` is one array, or a tuple/list of one array per plane for the planar formats.
InputFrame frameFromBuffer(const pybind11::object& input, const FrameMetadata& meta);

}  // namespace esf::python
