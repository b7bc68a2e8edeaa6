// The built-in sinks behind esframe/sinks.hpp: typed options in, core/outputs objects out.
#include "esframe/sinks.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/api_guard.hpp"
#include "core/outputs/bin_output.hpp"
#include "core/outputs/csv_output.hpp"
#include "core/outputs/drm_output.hpp"
#include "core/outputs/http_output.hpp"
#include "core/outputs/jsonl_output.hpp"
#include "core/outputs/mqtt_output.hpp"
#include "core/outputs/png_output.hpp"
#include "core/outputs/prom_output.hpp"
#include "core/pipeline/backend_choice.hpp"
#include "core/pipeline/pipeline_impl.hpp"
#include "platform/kms_display.hpp"

namespace esf {
namespace {

// `cropdetect`: the pipeline runs cropdetect (a CSV has its columns from the first row).
Result<std::unique_ptr<FrameSink>> makeRecordSink(int fd, const RecordSinkOptions& options,
                                                  bool cropdetect) {
  if (fd < 0)
    return fail(ErrorCode::kInvalidArgument, "record sink: fd ", std::to_string(fd),
                " is not a file descriptor");
  switch (options.format) {
    case RecordFormat::kJsonl:
      return std::unique_ptr<FrameSink>(new JsonlOutput(fd));
    case RecordFormat::kCsv:
      return std::unique_ptr<FrameSink>(new CsvOutput(fd, {options.csv_bins, cropdetect}));
    case RecordFormat::kBinary:
      return std::unique_ptr<FrameSink>(new BinOutput(fd));
  }
  return fail(ErrorCode::kInvalidArgument, "record sink: unknown record format");
}

Result<std::unique_ptr<FrameSink>> makePngSink(const PngSinkOptions& options) {
  if (options.every < 1 || options.graph_width < 1 || options.graph_height < 1)
    return fail(ErrorCode::kInvalidArgument,
                "PNG sink: every, graph width and graph height must be positive");
  Result<std::unique_ptr<PngOutput>> png = PngOutput::create(options);
  if (!png) return png.error();
  return std::unique_ptr<FrameSink>(std::move(png.value()));
}

Result<std::unique_ptr<FrameSink>> makeDrmSink(Pipeline& pipeline, const DrmSinkOptions& options) {
  GlContext* gl = PipelineAccess::impl(pipeline).gl.get();
  std::unique_ptr<GlContext> own_gl;
  if (!gl) {
    // The CPU backends have no GL context: the sink makes its own on the configured EGL device
    // (the display's card) and uploads each frame's image and histogram to draw them.
    Result<std::unique_ptr<GlContext>> made =
        GlContext::create(glContextOptions(PipelineAccess::impl(pipeline).config));
    if (!made)
      return fail(made.error().code, "DRM sink: the ",
                  backendName(PipelineAccess::impl(pipeline).config.backend),
                  " backend has no GL context, and none could be made to draw the display: ",
                  made.error().message);
    own_gl = std::move(made.value());
    gl = own_gl.get();
  }
  KmsDisplayOptions o;
  o.device = options.device;
  o.connector = options.connector;
  o.plane_id = options.plane_id;
  o.zpos = options.zpos;
  o.alpha = options.alpha;
  if (options.rect)
    o.rect = KmsRect{options.rect->x, options.rect->y, options.rect->width, options.rect->height};
  o.buffers = options.buffers;
  o.frame = options.frame;
  Result<std::unique_ptr<KmsDisplay>> display = KmsDisplay::open(o, *gl);
  if (!display) return display.error();
  return std::unique_ptr<FrameSink>(
      new DrmOutput(std::move(display.value()), options.graph, std::move(own_gl)));
}

Result<std::unique_ptr<FrameSink>> makeMqttSink(const MqttSinkOptions& options) {
  if (options.host.empty() || options.topic.empty())
    return fail(ErrorCode::kInvalidArgument, "MQTT sink: needs a host and a topic");
  if (options.qos < 0 || options.qos > 1 || options.every < 1 || options.queue < 1 ||
      options.port < 0 || options.port > 65535 || options.keepalive < 5)
    return fail(ErrorCode::kInvalidArgument,
                "MQTT sink: qos must be 0 or 1, every and queue positive, port in 0..65535, "
                "keepalive at least 5 seconds");
  if (options.discovery_remove && options.discovery_prefix.empty())
    return fail(ErrorCode::kInvalidArgument,
                "MQTT sink: removing Home Assistant's discovery configs needs their prefix");
  if (options.discovery_prefix.find_first_of("+#") != std::string::npos ||
      (!options.discovery_prefix.empty() &&
       (options.discovery_prefix.front() == '/' || options.discovery_prefix.back() == '/')))
    return fail(ErrorCode::kInvalidArgument, "MQTT sink: discovery prefix '",
                options.discovery_prefix,
                "' must be a topic without wildcards (+, #) or a leading or trailing '/'");
  if (options.discovery_state_every_s < 1 || options.discovery_state_every_s > 86400)
    return fail(ErrorCode::kInvalidArgument,
                "MQTT sink: the discovery state interval must be 1..86400 seconds, got ",
                std::to_string(options.discovery_state_every_s));
  return openMqttOutput(options);
}

Result<std::unique_ptr<FrameSink>> makePromSink(const PromSinkOptions& options) {
  if (options.path.empty())
    return fail(ErrorCode::kInvalidArgument, "Prometheus sink: needs a file path");
  if (options.every_s < 0)
    return fail(ErrorCode::kInvalidArgument, "Prometheus sink: every must be >= 0 seconds");
  // Fail now, not at the first frame: the folder must take the file and its temporary.
  const size_t slash = options.path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : options.path.substr(0, slash);
  // A missing folder is made, as the PNG sink makes its own (one level, not its parents).
  if (::access(dir.c_str(), F_OK) != 0 && errno == ENOENT && ::mkdir(dir.c_str(), 0755) != 0)
    return fail(errorCodeFromErrno(errno), "Prometheus sink: cannot create folder ", dir, ": ",
                std::strerror(errno));
  if (::access(dir.c_str(), W_OK) != 0)
    return fail(errorCodeFromErrno(errno), "Prometheus sink: cannot write in ", dir, ": ",
                std::strerror(errno));
  return std::unique_ptr<FrameSink>(new PromOutput(options));
}

// A name HttpSinkOptions::allowed_hosts may hold: what a Host header's name part can be (DNS
// labels; '_' as some local names have it), without a port, which the check does not compare.
Status checkAllowedHost(const std::string& name) {
  const bool fits = !name.empty() && name.size() <= 253 && name.front() != '.' &&
                    std::all_of(name.begin(), name.end(), [](char c) {
                      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                             (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
                    });
  if (fits) return Status::success();
  return fail(ErrorCode::kInvalidArgument, "HTTP sink: allowed host '", name,
              "' is not a host name: letters, digits, '-', '.' and '_', without a port (the Host "
              "header's port is not compared)");
}

Result<std::unique_ptr<FrameSink>> makeHttpSink(const HttpSinkOptions& o) {
  if (o.port < 0 || o.port > 65535 || o.clients < 1 || o.every < 1 || o.snapshot_every < 0 ||
      o.quality < 1 || o.quality > 100 || o.timeout_s < 1 || o.queue < 1 || o.graph_width < 1 ||
      o.graph_height < 1)
    return fail(ErrorCode::kInvalidArgument,
                "HTTP sink: port must be 0..65535, quality 1..100, snapshot_every 0 or more, and "
                "clients, every, timeout, queue and the graph size positive");
  if (o.user.empty() != o.password_file.empty())
    return fail(ErrorCode::kInvalidArgument, "HTTP sink: user and password_file go together");
  if (o.cert.empty() != o.key.empty())
    return fail(ErrorCode::kInvalidArgument, "HTTP sink: cert and key go together");
  if (Status s = checkFrameSize("HTTP sink graph", o.graph_width, o.graph_height); !s)
    return s.error();
  for (const std::string& name : o.allowed_hosts)
    if (Status s = checkAllowedHost(name); !s) return s.error();
  return openHttpOutput(o);
}

}  // namespace

// The API's sinks: made, and their calls, under guard (base/api_guard.hpp).
Result<std::unique_ptr<FrameSink>> createRecordSink(int fd, const RecordSinkOptions& options) {
  return guardedSink(guard("record sink", [&] { return makeRecordSink(fd, options, false); }),
                     "record sink");
}

Result<std::unique_ptr<FrameSink>> createRecordSink(int fd, const RecordSinkOptions& options,
                                                    const Pipeline& pipeline) {
  return guardedSink(
      guard("record sink",
            [&] { return makeRecordSink(fd, options, pipeline.config().detect.crop.has_value()); }),
      "record sink");
}

Result<std::unique_ptr<FrameSink>> createPngSink(const PngSinkOptions& options) {
  return guardedSink(guard("PNG sink", [&] { return makePngSink(options); }), "PNG sink");
}

Result<std::unique_ptr<FrameSink>> createDrmSink(Pipeline& pipeline,
                                                 const DrmSinkOptions& options) {
  return guardedSink(guard("DRM sink", [&] { return makeDrmSink(pipeline, options); }), "DRM sink");
}

Result<std::unique_ptr<FrameSink>> createMqttSink(const MqttSinkOptions& options) {
  return guardedSink(guard("MQTT sink", [&] { return makeMqttSink(options); }), "MQTT sink");
}

Result<std::unique_ptr<FrameSink>> createPromSink(const PromSinkOptions& options) {
  return guardedSink(guard("Prometheus sink", [&] { return makePromSink(options); }),
                     "Prometheus sink");
}

Result<std::unique_ptr<FrameSink>> createHttpSink(const HttpSinkOptions& options) {
  return guardedSink(guard("HTTP sink", [&] { return makeHttpSink(options); }), "HTTP sink");
}

}  // namespace esf
