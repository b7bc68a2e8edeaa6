#pragma once
// esframe.Result: one processed frame as Python sees it. The FrameResult is kept whole; hist is a
// numpy view of its counts (no copy), the other attributes are built on access.
#include <pybind11/pybind11.h>

#include <memory>

#include "esframe/frame_result.hpp"

namespace esf::python {

struct PyResult {
  std::shared_ptr<const FrameResult> frame;  // its gpu and image pointers are cleared
  bool input_copied = false;
};

PyResult makeResult(FrameResult&& frame, bool input_copied);
pybind11::dict eventDict(const HealthEvent& event);
void bindResult(pybind11::module_& module);

}  // namespace esf::python
