#pragma once
// esframe.Pipeline: a Pipeline bound to the thread that created it.
#include <pybind11/pybind11.h>

#include <memory>
#include <thread>

#include "apps/python/result.hpp"
#include "esframe/pipeline.hpp"

namespace esf::python {

class PyPipeline {
 public:
  explicit PyPipeline(const PipelineConfig& config);  // releases the GIL while it opens the GPU
  ~PyPipeline();
  PyPipeline(const PyPipeline&) = delete;
  PyPipeline& operator=(const PyPipeline&) = delete;

  // The pipeline, on the thread that created it; esframe.Error elsewhere.
  Pipeline& get();
  // Processes with the GIL released.
  PyResult process(const Frame& frame, bool copied);

  uint64_t next_seq = 0;

 private:
  std::thread::id owner_;
  std::unique_ptr<Pipeline> pipeline_;
};

}  // namespace esf::python
