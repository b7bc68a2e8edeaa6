#pragma once
// The three ways a Pipeline runs its stages, behind one interface:
//   gles:      the GPU stages, timed with GL timer queries where the context has them;
//   cpu:       the CPU executor (core/cpu): vectorised, multi-threaded, fused import + histogram;
//   reference: the plain CPU references (the oracle the GPU tests compare against).
// All give results equal bit for bit, timings aside.
//
// LumaSource::kSource: for YUV and GREY frames the L channel is counted on an image with
// R = G = B = the source's Y byte (the importer's luma image), which goes through the same blur
// and resize. RGB frames have no source luma; L then comes from RGB (logged once).
#include <memory>
#include <optional>
#include <vector>

#include "core/stats/host_detectors.hpp"
#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"
#include "esframe/pipeline_config.hpp"

namespace esf {

class GlContext;

class PipelineBackend {
 public:
  virtual ~PipelineBackend() = default;
  // Makes the frame plan (core/pipeline/frame_plan.hpp), and the stages it needs, for frames of
  // `frame`'s format and size, where they differ from the last frame's; process() and submit()
  // then walk it. The Pipeline calls it before each of them.
  virtual Status configureFor(const Frame& frame) = 0;
  // Processes one frame. The result's GPU view (gles) stays valid until the next process().
  virtual Result<FrameResult> process(const Frame& frame) = 0;
  // Worker threads the stages use (1 for the GPU and the references).
  virtual int threads() const { return 1; }
  // Whether its results carry PipelineConfig::signalstats' figures of `frame` but TOUT and VREP
  // (FrameResult::signalstats): the Pipeline then counts only those on the host.
  virtual bool countsSignalstats(const Frame& /*frame*/) const { return false; }
  // Whether, beside those, they carry TOUT and VREP where asked (the GPU's count of the Y plane):
  // the Pipeline then counts nothing of signalstats on the host.
  virtual bool countsLumaSignalstats(const Frame& /*frame*/) const { return false; }
  // Which of PipelineConfig::detect's detectors its results carry for `frame` (the GPU's counts
  // of the planes the import read): the Pipeline runs only the others on the host.
  virtual DetectorsCounted detectorsCounted(const Frame& /*frame*/) const { return {}; }
  // The end of the stream: the health events it gives (PipelineConfig::health).
  virtual void endStream(std::vector<HealthEvent>& /*events*/) {}

  // process() in two halves, for a loop that reads frame N+1 while the GPU works on frame N:
  // submit() queues the work (the frame's memory and buffers may be reused once it returns),
  // collect() waits for it and returns the result. One frame in flight at a time. By default
  // submit() does all the work (the CPU backends: nothing runs meanwhile).
  virtual Status submit(const Frame& frame) {
    submitted_ = process(frame);
    if (!submitted_->ok()) return submitted_->error();
    return Status::success();
  }
  // Optional, between submit(N) and collect(N): moves frame N+1's host memory towards the GPU
  // (the upload buffers) while the GPU works on N. submit(N+1) then skips that copy. The
  // frame's memory must stay unchanged until submit(N+1).
  virtual Status stage(const Frame&) { return Status::success(); }
  // Returns once nothing staged reads the staged frame's memory any more (the frame is dropped).
  virtual void settle() {}
  virtual Result<FrameResult> collect() {
    if (!submitted_) return fail(ErrorCode::kInternal, "pipeline: collect() without a submit()");
    Result<FrameResult> r = std::move(*submitted_);
    submitted_.reset();
    return r;
  }

 private:
  std::optional<Result<FrameResult>> submitted_;
};

// Each validates the stage configuration (gles: against the GPU's limits as well).
Result<std::unique_ptr<PipelineBackend>> createGpuBackend(GlContext& gl,
                                                          const PipelineConfig& config);
// Backend::kCpu (cpu_executor_backend.cpp).
Result<std::unique_ptr<PipelineBackend>> createCpuExecutorBackend(const PipelineConfig& config);
// Backend::kReference (reference_backend.cpp).
Result<std::unique_ptr<PipelineBackend>> createReferenceBackend(const PipelineConfig& config);

// The host backends' (reference and cpu) check of the blur taps (the GPU checks against its own
// limits).
Status checkHostBlurTaps(const PipelineConfig& config);

}  // namespace esf
