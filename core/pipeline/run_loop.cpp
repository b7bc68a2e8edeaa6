// esf::run(): the frame loop every client shares (the CLI's `run`, the tests, applications).
#include <vector>

#include "esframe/base/log.hpp"
#include "esframe/pipeline.hpp"

namespace esf {

Result<RunReport> run(Pipeline& pipeline, FrameSource& source, std::span<FrameSink* const> sinks,
                      const StopToken& stop, const RunLimits& limits) {
  RunReport report;
  std::optional<Error> error;
  for (;;) {
    if (limits.max_frames >= 0 && report.frames >= uint64_t(limits.max_frames)) {
      report.end = RunReport::End::kFrameLimit;
      break;
    }
    if (stop.stopRequested()) {
      report.end = RunReport::End::kStopped;
      break;
    }
    Result<std::optional<Frame>> frame = source.next();
    if (!frame) {
      if (stop.stopRequested()) {  // interrupted while waiting for a frame
        report.end = RunReport::End::kStopped;
        break;
      }
      error = frame.error();
      if (source.deviceLost()) error->code = ErrorCode::kDeviceLost;
      break;
    }
    if (!frame->has_value()) {
      report.end = RunReport::End::kEndOfStream;
      break;
    }
    Result<FrameResult> result = pipeline.process(**frame);
    if (!result) {
      error = result.error();
      break;
    }
    for (FrameSink* sink : sinks) {
      if (Status s = sink->annotate(result.value()); !s) {
        error = s.error();
        break;
      }
    }
    if (error) break;
    bool output_closed = false;
    for (FrameSink* sink : sinks) {
      Status s = sink->write(result.value());
      if (s) continue;
      if (s.error().code == ErrorCode::kOutputClosed) {
        output_closed = true;  // the other sinks still get this frame
        continue;
      }
      error = s.error();
      break;
    }
    if (error) break;
    ++report.frames;
    if (output_closed) {
      report.end = RunReport::End::kOutputClosed;
      break;
    }
  }
  // Every sink is finished (displays restored, files closed) on every way out.
  for (FrameSink* sink : sinks) {
    Status s = sink->finish();
    if (!s && s.error().code != ErrorCode::kOutputClosed) {
      if (error)
        logError(s.error().message);
      else
        error = s.error();
    }
  }
  if (error) return *error;
  return report;
}

}  // namespace esf
