#pragma once
// The built-in sinks (docs/output-formats.md describes every record format).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/graph_options.hpp"
#include "esframe/sink.hpp"
#include "esframe/sink_options.hpp"

namespace esf {

class Pipeline;

enum class RecordFormat {
  kJsonl,   // one JSON object per line
  kCsv,     // a header line, then one row per frame
  kBinary,  // "ESF1" records
};

struct RecordSinkOptions {
  RecordFormat format = RecordFormat::kJsonl;
  bool csv_bins = false;  // kCsv: add every bin count as columns
};

// One record per frame, written whole to `fd`, which stays the caller's (STDOUT_FILENO, a pipe, a
// file). A reader that went away gives ErrorCode::kOutputClosed: ignore SIGPIPE in the process.
ESF_API Result<std::unique_ptr<FrameSink>> createRecordSink(int fd,
                                                            const RecordSinkOptions& options);
// The same for the frames of `pipeline`: a CSV's header then also has the columns of figures its
// configuration asks for that the first frame may lack (cropdetect's, absent on the frames it
// skips).
ESF_API Result<std::unique_ptr<FrameSink>> createRecordSink(int fd,
                                                            const RecordSinkOptions& options,
                                                            const Pipeline& pipeline);

ESF_API Result<std::unique_ptr<FrameSink>> createPngSink(const PngSinkOptions& options);

struct DrmRect {
  int32_t x = 0, y = 0;
  uint32_t width = 0, height = 0;
};

struct DrmSinkOptions {
  std::string device;     // card path or driver name; empty: the GL context's card or the first
  std::string connector;  // "HDMI-A-1" or a connector id; empty: the first connected one
  std::optional<uint32_t> plane_id;
  std::optional<uint64_t> zpos;
  std::optional<uint64_t> alpha;
  // On the CRTC. Default: a corner over the frame (a quarter of the mode's width, 2:1, 16 pixels
  // from the top right), or the whole mode with frame = false.
  std::optional<DrmRect> rect;
  int buffers = 3;  // 2: double, 3: triple buffering
  // The graph drawn (mode=, scale=, decor=). Decorations default off here: the plane shows the
  // plain picture unless decor=on.
  GraphOptions graph{GraphMode::kOverlay, false, false};
  // The processed frame on the primary plane under the graph (frame=off: the graph alone).
  bool frame = true;
};
// The processed frame and the histogram graph on DRM/KMS planes. Draws with the pipeline's GL
// context, which must run on the display's card (EglPlatform::kGbm with that card); on the CPU
// backends the sink makes its own context from the pipeline's EGL options and uploads each frame.
ESF_API Result<std::unique_ptr<FrameSink>> createDrmSink(Pipeline& pipeline,
                                                         const DrmSinkOptions& options);

// Never blocks the pipeline: messages wait in a bounded queue for a worker thread; each carries
// "mqtt_dropped", the messages dropped so far (docs/output-formats.md).
ESF_API Result<std::unique_ptr<FrameSink>> createMqttSink(const MqttSinkOptions& options);

// Prometheus textfile-collector metrics: counters, per-channel gauges, stage timings, labelled
// with the source. Written to PATH.tmp, then renamed over PATH.
ESF_API Result<std::unique_ptr<FrameSink>> createPromSink(const PromSinkOptions& options);

// An HTTP server on its own thread (docs/output-formats.md, "HTTP"): /metrics, /api/frame,
// /api/events (Server-Sent Events), /graph.png, /frame.jpg, /stream.mjpg and a page at /. Binding
// fails at creation (kBusy for an address in use). Images are made only while a client
// asks for them; a slow client is dropped, never waited for.
ESF_API Result<std::unique_ptr<FrameSink>> createHttpSink(const HttpSinkOptions& options);

}  // namespace esf
