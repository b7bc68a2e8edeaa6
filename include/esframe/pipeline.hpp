#pragma once
// libesframe's pipeline. Per frame:
//   source -> import (any pixel format -> the RGBA8 working image) -> blur -> resize
//   -> histogram at the configured bins (and a 256-value one for exact stats) -> scale -> stats
//   -> every sink
// on the GPU (GLES 3.1 compute, headless EGL), the CPU executor or the plain CPU references, bit
// for bit the same.
//
//   esf::PipelineConfig config;                          // GPU, R+G+B+L, 256 bins
//   auto pipeline = esf::Pipeline::create(config);       // Result<std::unique_ptr<Pipeline>>
//   auto source = (*pipeline)->openSource("pattern", {});
//   auto frame = (*source)->next();                      // Result<std::optional<Frame>>
//   auto result = (*pipeline)->process(**frame);         // Result<FrameResult>: plain data
// or esf::run() below, which loops over the frames and feeds sinks (esframe/sinks.hpp).
//
// Threads: a Pipeline and what it opens belong to the thread that created them (a GL context is
// current on one thread). Only StopToken::requestStop() may be called from elsewhere, including
// a signal handler. No exceptions cross this API: every failure is an Error with a code.
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"
#include "esframe/pipeline_config.hpp"
#include "esframe/sink.hpp"
#include "esframe/source.hpp"

namespace esf {

class ESF_API Pipeline {
 public:
  // Validates the configuration, opens the GPU (kGles: a headless EGL context, current on this
  // thread) and compiles the stages. kAuto opens the GPU and keeps it when it is a hardware GPU
  // with GLES 3.1 compute, else takes the CPU executor; it logs the decision once per process.
  // When the tuning cache holds `esframe tune --stages backend` records for this GPU and the
  // configured stage chain, kAuto decides at the first frame instead, by that frame's size class.
  static Result<std::unique_ptr<Pipeline>> create(const PipelineConfig& config);
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  const PipelineConfig& config() const;
  // The backend the stages run on (kAuto resolved: kGles or kCpu; before the first frame of a
  // tuning-cache decision, the renderer rule's provisional choice).
  Backend backend() const;
  // What the stages run on: "gles: <GL_RENDERER>, <GL_VERSION>", "cpu: the executor, N threads"
  // or "reference: the plain CPU references".
  std::string deviceDescription() const;
  // deviceDescription(), and for kAuto why: "cpu: ... (auto: the GL renderer llvmpipe ... is
  // software)".
  std::string backendDescription() const;

  // Opens a frame source (esframe/source.hpp lists the specs). A camera on the GPU backend
  // allocates zero-copy buffers on the pipeline's GPU when it can (IoMode::kAuto). Destroy the
  // source before the pipeline.
  Result<std::unique_ptr<FrameSource>> openSource(const std::string& spec,
                                                  const SourceConfig& config);

  // Processes one frame. The result's GPU view stays valid until the next call.
  Result<FrameResult> process(const Frame& frame);
  // The end of the stream: the health events it gives (a black interval still running ends at
  // the last frame). esf::run() calls it and hands them to FrameSink::writeEvents.
  Result<std::vector<HealthEvent>> endStream();

  struct Impl;  // internal (core/pipeline/pipeline_impl.hpp)

 private:
  friend struct PipelineAccess;
  explicit Pipeline(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Asks a run to stop after the frame in hand: from another thread or a signal handler.
class StopToken {
 public:
  void requestStop() noexcept { stop_.store(true, std::memory_order_relaxed); }
  bool stopRequested() const noexcept { return stop_.load(std::memory_order_relaxed); }

 private:
  static_assert(std::atomic<bool>::is_always_lock_free, "requestStop must be signal-safe");
  std::atomic<bool> stop_{false};
};

struct RunLimits {
  int64_t max_frames = -1;  // -1: until the end of the stream, a stop, or a closed output
};

struct RunReport {
  enum class End {
    kEndOfStream,   // the source had no more frames (files, image sequences)
    kFrameLimit,    // RunLimits::max_frames were delivered
    kStopped,       // StopToken::requestStop()
    kOutputClosed,  // a sink's reader went away (ErrorCode::kOutputClosed): not a failure
  };
  uint64_t frames = 0;  // frames processed and handed to every sink
  End end = End::kEndOfStream;
  double seconds = 0;  // wall time of the frame loop, from the first read to the last delivery
  // From the first frame's delivery to the last's: the steady rate, (frames - 1) / this, without
  // the first frame's one-time costs (stages sized and compiled for the frame, first allocations).
  double steady_seconds = 0;
};

// The run loop: pulls frames from `source`, processes each, hands the result to every sink in
// order, until one of RunReport::End, then finishes every sink (on errors too). The first
// failure of the source, the pipeline or a sink ends the run and is returned with its code
// (ErrorCode::kDeviceLost for a camera that vanished); frames delivered before it stay delivered.
ESF_API Result<RunReport> run(Pipeline& pipeline, FrameSource& source,
                              std::span<FrameSink* const> sinks, const StopToken& stop,
                              const RunLimits& limits = {});

}  // namespace esf
