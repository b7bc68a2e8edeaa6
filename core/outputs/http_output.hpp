#pragma once
// --output http:[ADDR:]PORT: the sink side of the HTTP server (http_server.hpp, in the module
// libesframe-http.so, loaded on the first http output like libesframe-mqtt.so). The pipeline's
// thread keeps the latest frame's figures and, only while a client waits for them, draws the graph
// and reads the processed image back; an encoder thread turns those into PNG and JPEG, so no
// encoding runs on the pipeline's thread and an idle server costs a copy of the figures a frame.
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "core/outputs/http_server.hpp"
#include "core/outputs/png_output.hpp"
#include "core/outputs/prom_output.hpp"
#include "esframe/sink.hpp"
#include "esframe/sink_options.hpp"

namespace esf {

// The sink (http_output.cpp), or kUnsupported in a build without libmicrohttpd and libturbojpeg
// (http_unavailable.cpp).
Result<std::unique_ptr<FrameSink>> openHttpOutput(const HttpSinkOptions& options);

class HttpOutput : public FrameSink, private HttpContent {
 public:
  static Result<std::unique_ptr<HttpOutput>> create(const HttpSinkOptions& options);
  ~HttpOutput() override;

  Status write(const FrameResult& frame) override;
  Status writeEvents(const std::vector<HealthEvent>& events) override;
  Status finish() override;
  int port() const { return server_->port(); }

 private:
  HttpOutput(const HttpSinkOptions& options, const HttpModule& module)
      : options_(options),
        module_(module),
        painter_(options.graph_width, options.graph_height, options.graph) {}
  // HttpContent, on the server's thread.
  std::optional<std::string> metrics() override;
  std::optional<FrameJson> frameJson(bool with_scopes) override;
  std::optional<uint64_t> latestSeq() override;
  void requestSnapshot(Snapshot which) override;

  void encodeLoop();
  void stopEncoder();

  HttpSinkOptions options_;
  const HttpModule& module_;
  GraphPainter painter_;
  std::unique_ptr<HttpService> server_;
  uint64_t delivered_ = 0;
  std::atomic<bool> graph_wanted_{false}, frame_wanted_{false};

  std::mutex frame_mutex_;  // guards the latest frame's figures
  FrameResult last_;        // without its scopes: they are in last_scopes_
  std::optional<ScopeCounts> last_scopes_;
  bool have_last_ = false;
  RunCounts counts_;

  // Images waiting for the encoder thread: the latest only (a newer one replaces it).
  struct Pending {
    uint64_t seq = 0;
    std::optional<RgbaImage> image;  // nullopt with `failed`: the image could not be made
    bool failed = false;
  };
  std::mutex encode_mutex_;
  std::condition_variable encode_wake_;
  std::optional<Pending> pending_graph_, pending_frame_;
  bool encoder_stop_ = false;
  std::thread encoder_;
};

}  // namespace esf
