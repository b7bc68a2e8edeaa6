#include "core/outputs/http_output.hpp"

#include <pthread.h>

#include "base/shared_module.hpp"
#include "base/signal_free_thread.hpp"
#include "core/outputs/jsonl_output.hpp"
#include "esframe/base/log.hpp"

namespace esf {
namespace {

constexpr std::string_view kOutputWhat = "HTTP sink";

// One frame's Server-Sent Event: each JSONL line of the frame as a data line of its own event.
std::string sseText(const std::string& lines) {
  std::string text;
  for (size_t start = 0; start < lines.size();) {
    const size_t end = lines.find('\n', start);
    text += "data: " + lines.substr(start, end - start) + "\n\n";
    start = end == std::string::npos ? lines.size() : end + 1;
  }
  return text;
}

// What the module calls of libesframe (HttpHost says why a table).
const HttpHost kHttpHost{&logLine, &errorCodeFromErrno};

}  // namespace

Result<const HttpModule*> httpModule() {
  static const Result<const HttpModule*> module =
      loadOptionalModule(OptionalModule<HttpModule, HttpHost>{kHttpModuleFile, kHttpModuleEntry,
                                                              ESF_LINKED_ENTRY(esf_http_module_v1)},
                         kHttpHost);
  if (!module) return fail(module.error().code, kOutputWhat, ": ", module.error().message);
  return module;
}

Result<std::unique_ptr<HttpOutput>> HttpOutput::create(const HttpSinkOptions& options) {
  Result<const HttpModule*> module = httpModule();
  if (!module) return module.error();
  std::unique_ptr<HttpOutput> out(new HttpOutput(options, **module));
  Result<std::unique_ptr<HttpService>> server = (*module)->start_server(options, *out);
  if (!server) return server.error();
  out->server_ = std::move(server.value());
  out->encoder_ = startSignalFreeThread([o = out.get()] {
    pthread_setname_np(pthread_self(), "esf-http-encode");  // named in top and /proc
    o->encodeLoop();
  });
  return out;
}

Result<std::unique_ptr<FrameSink>> openHttpOutput(const HttpSinkOptions& options) {
  Result<std::unique_ptr<HttpOutput>> out = HttpOutput::create(options);
  if (!out) return out.error();
  return std::unique_ptr<FrameSink>(std::move(out.value()));
}

HttpOutput::~HttpOutput() {
  if (server_) server_->stop();
  stopEncoder();
}

void HttpOutput::stopEncoder() {
  {
    std::lock_guard lock(encode_mutex_);
    encoder_stop_ = true;
  }
  encode_wake_.notify_all();
  if (encoder_.joinable()) encoder_.join();
}

Status HttpOutput::write(const FrameResult& f) {
  {
    std::lock_guard lock(frame_mutex_);
    counts_.add(f);
    last_ = f;
    last_.gpu = nullptr;  // views into the pipeline, valid only during this call
    last_.image = nullptr;
    // The scopes' counts (megabytes of JSON) go out only on request, not to every event stream.
    last_scopes_ = std::move(last_.scopes);
    last_.scopes.reset();
    have_last_ = true;
  }
  const uint64_t index = delivered_++;
  if (server_->hasEventClients() && index % uint64_t(options_.every) == 0) {
    std::string lines;
    {
      std::lock_guard lock(frame_mutex_);
      lines = jsonlLine(last_);
    }
    for (const HealthEvent& e : f.events) lines += jsonlEventLine(e);
    server_->publishEvents(sseText(lines));
  }
  // The images are drawn and read back here, on the pipeline's thread (the GL context's), only
  // while a client waits for them; the encoder thread encodes them.
  std::optional<Pending> graph, frame;
  if (graph_wanted_.exchange(false)) {
    Result<RgbaImage> image = painter_.paint(f);
    if (!image) logWarning(image.error().message);
    graph = Pending{f.seq, image ? std::optional(std::move(image.value())) : std::nullopt, !image};
  }
  const bool frame_due =
      options_.snapshot_every > 0 && index % uint64_t(options_.snapshot_every) == 0;
  if (frame_due && (server_->hasStreamClients() || frame_wanted_.load())) {
    frame_wanted_ = false;
    Result<std::optional<RgbaImage>> image = processedImage(f);
    if (!image) logWarning(image.error().message);
    const bool made = image && image->has_value();
    frame = Pending{f.seq, made ? std::move(*image.value()) : std::optional<RgbaImage>(), !made};
  }
  if (graph || frame) {
    {
      std::lock_guard lock(encode_mutex_);
      if (graph) pending_graph_ = std::move(graph);
      if (frame) pending_frame_ = std::move(frame);
    }
    encode_wake_.notify_one();
  }
  return Status::success();
}

void HttpOutput::encodeLoop() {
  while (true) {
    std::optional<Pending> graph, frame;
    {
      std::unique_lock lock(encode_mutex_);
      encode_wake_.wait(lock, [&] { return encoder_stop_ || pending_graph_ || pending_frame_; });
      if (encoder_stop_) return;
      graph.swap(pending_graph_);
      frame.swap(pending_frame_);
    }
    if (graph) {
      std::optional<std::string> bytes;
      if (graph->image) {
        Result<std::string> png = encodePng(*graph->image);
        if (png)
          bytes = std::move(png.value());
        else
          logWarning(png.error().message);
      }
      server_->publishSnapshot(Snapshot::kGraph, graph->seq, std::move(bytes));
    }
    if (frame) {
      std::optional<std::string> bytes;
      if (frame->image) {
        Result<std::string> jpeg = module_.encode_jpeg(*frame->image, options_.quality);
        if (jpeg)
          bytes = std::move(jpeg.value());
        else
          logWarning(jpeg.error().message);
      }
      server_->publishSnapshot(Snapshot::kFrame, frame->seq, std::move(bytes));
    }
  }
}

Status HttpOutput::writeEvents(const std::vector<HealthEvent>& events) {
  std::string lines;
  {
    std::lock_guard lock(frame_mutex_);
    counts_.add(events);
  }
  for (const HealthEvent& e : events) lines += jsonlEventLine(e);
  if (!lines.empty() && server_->hasEventClients()) server_->publishEvents(sseText(lines));
  return Status::success();
}

Status HttpOutput::finish() {
  server_->stop();
  stopEncoder();
  return Status::success();
}

std::optional<std::string> HttpOutput::metrics() {
  std::lock_guard lock(frame_mutex_);
  if (!have_last_) return std::nullopt;
  return promText(last_, counts_);
}

std::optional<HttpContent::FrameJson> HttpOutput::frameJson(bool with_scopes) {
  std::lock_guard lock(frame_mutex_);
  if (!have_last_) return std::nullopt;
  if (!with_scopes || !last_scopes_) return FrameJson{last_.seq, jsonlLine(last_)};
  last_.scopes = std::move(last_scopes_);  // lent for the line, under the lock
  FrameJson json{last_.seq, jsonlLine(last_)};
  last_scopes_ = std::move(last_.scopes);
  last_.scopes.reset();
  return json;
}

std::optional<uint64_t> HttpOutput::latestSeq() {
  std::lock_guard lock(frame_mutex_);
  if (!have_last_) return std::nullopt;
  return last_.seq;
}

void HttpOutput::requestSnapshot(Snapshot which) {
  (which == Snapshot::kGraph ? graph_wanted_ : frame_wanted_) = true;
}

}  // namespace esf
