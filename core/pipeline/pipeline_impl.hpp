#pragma once
// What a Pipeline owns. Internal: sinks inside the library (the DRM sink) draw with its GL context.
#include <memory>
#include <optional>

#include "capture/dmabuf_allocator.hpp"
#include "core/pipeline/pipeline_backend.hpp"
#include "core/stats/host_detectors.hpp"
#include "core/stats/signalstats.hpp"
#include "core/tuning/tuning_cache.hpp"
#include "esframe/pipeline.hpp"
#include "platform/gl_context.hpp"

namespace esf {

// The figures counted on the host from a frame (countHostFigures), until its result takes them.
// Where the backend counted the signalstats figures, the host's hold only TOUT and VREP (none
// where it counted those too).
struct HostFigures {
  std::optional<SignalstatsFigures> signalstats;
  DetectFigures detect;
  void moveInto(FrameResult& result) {
    if (result.signalstats && signalstats) {
      result.signalstats->tout_pixels = signalstats->tout_pixels;
      result.signalstats->tout = signalstats->tout;
      result.signalstats->vrep_rows = signalstats->vrep_rows;
      result.signalstats->vrep = signalstats->vrep;
    } else if (!result.signalstats) {
      result.signalstats = std::move(signalstats);
    }
    detect.moveInto(result);
  }
};

struct Pipeline::Impl {
  PipelineConfig config;
  Backend backend_kind = Backend::kGles;  // never kAuto: what kAuto resolved to
  std::string choice_reason;              // kAuto: why (backend_choice.hpp)
  std::unique_ptr<GlContext> gl;          // kGles; declared first so it outlives what follows
  // Zero-copy capture buffers on the GPU's device, made when a camera first asks for them.
  std::unique_ptr<DmabufAllocator> dmabuf_allocator;
  std::unique_ptr<PipelineBackend> backend;
  // kAuto with backend records in the tuning cache for this GPU and stage chain: the backend is
  // made at the first frame, whose size picks the record (backend_choice.hpp). Until then
  // `backend` is null and backend_kind / choice_reason hold the rule's provisional choice.
  std::optional<TuningCache> tuning;
  bool delivered = false;  // a frame went through the backend
  // PipelineConfig::signalstats and ::detect: counted here from the frame the backend is given,
  // the same host code whichever backend runs; `submitted_host` waits for collectFrame.
  SignalstatsCounter signalstats;
  std::optional<HostDetectors> detectors;  // made at the first frame
  HostFigures submitted_host;
};

// kAuto on a GPU whose driver cannot compile a program this run needs (`error`, from the first
// frame or the backend's creation): the CPU executor takes over, said once with the driver's
// words; true when it did.
bool fallBackToExecutor(Pipeline::Impl& impl, const Error& error);

// PipelineConfig::signalstats' and ::detect's figures of `frame`, while its memory is the caller's.
HostFigures countHostFigures(Pipeline::Impl& impl, const Frame& frame);

// Makes the backend if kAuto left it to the first frame (Impl::tuning).
Status ensureBackend(Pipeline::Impl& impl, const Frame& frame);

// Pipeline::process() in its two halves (PipelineBackend::submit/collect), for esf::run().
Status submitFrame(Pipeline& pipeline, const Frame& frame);
Result<FrameResult> collectFrame(Pipeline& pipeline);
// PipelineBackend::stage for the next frame, while one is in flight.
Status stageFrame(Pipeline& pipeline, const Frame& frame);
// PipelineBackend::settle: before a staged frame that will not be submitted goes away.
void settleStagedFrame(Pipeline& pipeline);

// The Impl of a Pipeline, for the library's own code (Pipeline keeps it private).
struct PipelineAccess {
  static Pipeline::Impl& impl(Pipeline& pipeline) { return *pipeline.impl_; }
};

}  // namespace esf
