#pragma once
// The two ways a Pipeline runs its stages, behind one interface:
//   gles: the GPU stages, timed with GL timer queries where the context has them;
//   cpu:  the plain CPU references (the oracle the GPU tests compare against), so the results
//         equal the gles backend's bit for bit, timings aside.
//
// LumaSource::kSource: for YUV and GREY frames the L channel is counted on an image with
// R = G = B = the source's Y byte (the importer's luma image), which goes through the same blur
// and resize. RGB frames have no source luma; L then comes from RGB (logged once).
#include <memory>
#include <optional>

#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"
#include "esframe/pipeline_config.hpp"

namespace esf {

class GlContext;

class PipelineBackend {
 public:
  virtual ~PipelineBackend() = default;
  // Processes one frame. The result's GPU view (gles) stays valid until the next process().
  virtual Result<FrameResult> process(const Frame& frame) = 0;

  // process() in two halves, for a loop that reads frame N+1 while the GPU works on frame N:
  // submit() queues the work (the frame's memory and buffers may be reused once it returns),
  // collect() waits for it and returns the result. One frame in flight at a time. By default
  // submit() does all the work (the CPU backends: nothing runs meanwhile).
  virtual Status submit(const Frame& frame) {
    submitted_ = process(frame);
    if (!submitted_->ok()) return submitted_->error();
    return Status::success();
  }
  virtual Result<FrameResult> collect() {
    if (!submitted_) return fail(ErrorCode::kInternal, "pipeline: collect() without a submit()");
    Result<FrameResult> r = std::move(*submitted_);
    submitted_.reset();
    return r;
  }

 private:
  std::optional<Result<FrameResult>> submitted_;
};

// Both validate the stage configuration (gles: against the GPU's limits as well).
Result<std::unique_ptr<PipelineBackend>> createGpuBackend(GlContext& gl,
                                                          const PipelineConfig& config);
Result<std::unique_ptr<PipelineBackend>> createCpuBackend(const PipelineConfig& config);

}  // namespace esf
