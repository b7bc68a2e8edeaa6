// esf::run(): the frame loop every client shares (the CLI's `run`, the tests, applications).
//
// Files and pipes overlap: frame N+1 is read, and staged (copied into the importer's upload
// buffers), while the GPU works on frame N (submit N, read and stage N+1, collect and deliver
// N, submit N+1...). The stages' images are single-buffered, so N is collected before N+1 is
// submitted; the overlap is the source's read and the host copy against the GPU's work.
// Cameras (isLive) run one frame at a time: their next frame is the next exposure, and a result
// must not wait for it.
#include <chrono>
#include <optional>
#include <vector>

#include "base/api_guard.hpp"
#include "base/source_outages.hpp"
#include "core/pipeline/pipeline_impl.hpp"
#include "esframe/base/log.hpp"
#include "esframe/pipeline.hpp"

namespace esf {
namespace {

double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// Collects the frame in flight and hands it to every sink. Returns the error that ends the run;
// sets `output_closed` when a sink's reader went away (the other sinks still get the frame).
std::optional<Error> deliver(Pipeline& pipeline, std::span<FrameSink* const> sinks, double read_ms,
                             bool& output_closed) {
  Result<FrameResult> result = collectFrame(pipeline);
  if (!result) return result.error();
  // Where a frame's time goes starts with the source: reading a file, waiting for a camera.
  std::vector<StageTiming>& timings = result.value().timings;
  timings.insert(timings.begin(), StageTiming{"read", read_ms, false});
  // Every sink may add to the frame before any writes it (the auto-exposure loop's controls).
  for (FrameSink* sink : sinks)
    if (Status s = guard("a sink's annotate", [&] { return sink->annotate(result.value()); }); !s)
      return s.error();
  for (FrameSink* sink : sinks) {
    Status s = guard("a sink's write", [&] { return sink->write(result.value()); });
    if (s) continue;
    if (s.error().code == ErrorCode::kOutputClosed) {
      output_closed = true;
      continue;
    }
    return s.error();
  }
  return std::nullopt;
}

}  // namespace

Result<RunReport> run(Pipeline& pipeline, FrameSource& source, std::span<FrameSink* const> sinks,
                      const StopToken& stop, const RunLimits& limits) {
  const bool overlap = !source.isLive();
  RunReport report;
  std::optional<Error> error;
  bool in_flight = false;  // a frame submitted, not yet collected
  double in_flight_read_ms = 0;
  const auto loop_start = std::chrono::steady_clock::now();
  std::optional<std::chrono::steady_clock::time_point> first_delivered;
  // Collects and delivers the frame in flight; true when that ends the run (an error, or a
  // closed output).
  auto deliverInFlight = [&]() -> bool {
    in_flight = false;
    bool output_closed = false;
    error = deliver(pipeline, sinks, in_flight_read_ms, output_closed);
    if (error) return true;
    ++report.frames;
    if (!first_delivered) {
      first_delivered = std::chrono::steady_clock::now();
      logDebug("run: the first frame delivered");  // -vv's timeline: the end of start-up
    }
    report.steady_seconds = msSince(*first_delivered) / 1e3;
    if (output_closed) report.end = RunReport::End::kOutputClosed;
    return output_closed;
  };
  // A network source reports its outages while it waits for its stream: every sink gets the
  // event at once; a sink's failure ends the run after that read.
  std::optional<Error> event_error;
  auto* outages = dynamic_cast<OutageReporting*>(&source);
  if (outages)
    outages->setOutageHooks(OutageHooks{
        [&](const HealthEvent& event) {
          for (FrameSink* sink : sinks) {
            Status s = guard("a sink's writeEvents", [&] { return sink->writeEvents({event}); });
            if (!s && s.error().code != ErrorCode::kOutputClosed && !event_error)
              event_error = s.error();
          }
        },
        [&] { return stop.stopRequested(); }});
  // The frame loop, under guard: an exception out of it (the sources and sinks' own calls are
  // guarded one by one) ends the run as an error, and the frame staged is still settled and
  // every sink still finished below.
  auto frameLoop = [&]() -> Status {
    for (;;) {
      // The next frame, unless the run ends here.
      std::optional<Frame> next;
      std::optional<Error> source_error;
      double read_ms = 0;
      if (limits.max_frames >= 0 && report.frames + in_flight >= uint64_t(limits.max_frames)) {
        report.end = RunReport::End::kFrameLimit;
      } else if (stop.stopRequested()) {
        report.end = RunReport::End::kStopped;
      } else {
        const auto read_start = std::chrono::steady_clock::now();
        Result<std::optional<Frame>> frame =
            guard("reading a frame", [&] { return source.next(); });
        read_ms = msSince(read_start);
        if (event_error) {
          source_error = event_error;
        } else if (!frame) {
          if (stop.stopRequested()) {  // interrupted while waiting for a frame
            report.end = RunReport::End::kStopped;
          } else {
            source_error = frame.error();
            if (source.deviceLost()) source_error->code = ErrorCode::kDeviceLost;
          }
        } else if (!frame->has_value()) {
          report.end = RunReport::End::kEndOfStream;
        } else {
          next = **frame;
        }
      }
      // The next frame's copy towards the GPU runs while the GPU still works on the one in
      // flight. A failure here is left to its submit, which tries the copy again and reports it.
      if (next && in_flight) {
        if (Status s = stageFrame(pipeline, *next); !s)
          logDebug("run: staging the next frame failed: " + s.error().message);
      }
      // The frame in flight is delivered whatever happened to the read after it.
      if (in_flight && deliverInFlight()) break;
      if (source_error) {
        error = source_error;
        break;
      }
      if (!next) break;
      if (stop.stopRequested()) {  // asked during that delivery: the frame read ahead is dropped
        report.end = RunReport::End::kStopped;
        break;
      }
      if (Status s = submitFrame(pipeline, *next); !s) {
        error = s.error();
        break;
      }
      if (report.frames == 0 && !in_flight)  // -vv's timeline: the first frame's GPU set-up
        logDebug("run: the first frame submitted");
      in_flight = true;
      in_flight_read_ms = read_ms;
      if (!overlap && deliverInFlight()) break;  // a camera: its result now, not after the next
    }
    return Status::success();
  };
  if (Status s = guard("run", frameLoop); !s) error = s.error();
  if (outages) outages->setOutageHooks({});  // they point into this call
  // A frame staged and then dropped (the run ended in its read's turn): its copy still reads
  // the source's memory.
  settleStagedFrame(pipeline);
  report.seconds = msSince(loop_start) / 1e3;
  // The events the end of the stream gives, for every sink that still has a reader.
  if (!error && report.end != RunReport::End::kOutputClosed) {
    Result<std::vector<HealthEvent>> tail = pipeline.endStream();
    if (!tail) error = tail.error();
    for (FrameSink* sink : sinks) {
      if (error || !tail || tail->empty()) break;
      Status s = guard("a sink's writeEvents", [&] { return sink->writeEvents(tail.value()); });
      if (!s && s.error().code != ErrorCode::kOutputClosed) error = s.error();
    }
  }
  // Every sink is finished (displays restored, files closed) on every way out.
  for (FrameSink* sink : sinks) {
    Status s = guard("a sink's finish", [&] { return sink->finish(); });
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
