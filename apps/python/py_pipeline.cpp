#include "apps/python/py_pipeline.hpp"

#include "apps/python/errors.hpp"

namespace py = pybind11;

namespace esf::python {

PyPipeline::PyPipeline(const PipelineConfig& config) : owner_(std::this_thread::get_id()) {
  Result<std::unique_ptr<Pipeline>> created = [&] {
    py::gil_scoped_release release;  // opening the GPU and compiling the stages takes a while
    return Pipeline::create(config);
  }();
  pipeline_ = unwrap(std::move(created));
}

PyPipeline::~PyPipeline() {
  py::gil_scoped_release release;  // the GL context's teardown waits for the GPU
  pipeline_.reset();
}

Pipeline& PyPipeline::get() {
  // A GL context is current on the thread that made it (esframe/pipeline.hpp): the CPU backends
  // would work elsewhere, but one rule for all keeps a script portable between backends.
  if (std::this_thread::get_id() != owner_)
    raise(ErrorCode::kUnsupported,
          "Pipeline: used from a thread other than the one that created it (its GPU context is "
          "current there); create the Pipeline in the thread that processes");
  return *pipeline_;
}

PyResult PyPipeline::process(const Frame& frame, bool copied) {
  Pipeline& p = get();
  Result<FrameResult> result = [&] {
    py::gil_scoped_release release;
    return p.process(frame);
  }();
  return makeResult(unwrap(std::move(result)), copied);
}

}  // namespace esf::python
