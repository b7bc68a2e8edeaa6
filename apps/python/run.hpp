#pragma once
// esframe.open (an iterator of Results from a FrameSource) and esframe.run (the run loop with
// the built-in sinks).
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "apps/python/py_pipeline.hpp"

namespace esf::python {

// `pipeline` is an esframe.Pipeline object, kept alive by the iterator.
pybind11::object openFramesOf(pybind11::object pipeline, const std::string& source,
                              const pybind11::dict& source_options,
                              std::optional<int64_t> max_frames);
pybind11::object openFrames(pybind11::object self, const std::string& source,
                            std::optional<int64_t> max_frames, const pybind11::kwargs& options);
pybind11::list endStream(PyPipeline& pipeline);
void bindFrames(pybind11::module_& module);
void bindRun(pybind11::module_& module);

}  // namespace esf::python
