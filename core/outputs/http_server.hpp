#pragma once
// The HTTP server of --output http (libmicrohttpd): one internal polling thread serves every
// connection, so the pipeline thread only hands over text and images. Streams (Server-Sent
// Events, MJPEG) keep a bounded queue per client: a client that falls behind is dropped, one that
// stops reading times out, and neither holds up the pipeline or the other clients.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/shared_module.hpp"
#include "core/outputs/http_guard.hpp"
#include "esframe/base/log.hpp"
#include "esframe/base/result.hpp"
#include "esframe/rgba_image.hpp"
#include "esframe/sink_options.hpp"

struct MHD_Daemon;
struct MHD_Connection;

namespace esf {

// The images the server asks the sink for, made only while someone waits for them.
enum class Snapshot { kGraph, kFrame };

// What the sink offers the server's thread; every call must be safe from that thread.
class HttpContent {
 public:
  virtual ~HttpContent() = default;
  // The Prometheus text, and the latest frame's JSON object with its sequence number (read
  // together); nullopt before the first frame. The object has the frame's "scopes" (their
  // counts, large) only `with_scopes` (/api/frame?scopes=1); the event stream's lines never.
  virtual std::optional<std::string> metrics() = 0;
  struct FrameJson {
    uint64_t seq = 0;
    std::string json;
  };
  virtual std::optional<FrameJson> frameJson(bool with_scopes) = 0;
  // The sequence number of the latest frame delivered (nullopt before the first).
  virtual std::optional<uint64_t> latestSeq() = 0;
  // Someone waits for a snapshot of a frame after `after_seq` (or of any, when nullopt).
  virtual void requestSnapshot(Snapshot which) = 0;
};

// The server as the sink sees it: libesframe-http.so makes it (the sink calls it through these
// virtual functions only, so libesframe needs none of the module's symbols).
class HttpService {
 public:
  virtual ~HttpService() = default;
  // The port bound (the one asked for, or the kernel's choice for port 0).
  virtual int port() const = 0;
  // One frame's SSE event text ("data: ...\n\n" lines) to every /api/events client.
  virtual void publishEvents(const std::string& text) = 0;
  // A snapshot's encoded bytes for the frame `seq` (nullopt: it could not be made) to those
  // waiting for it and, for frames, to every /stream.mjpg client.
  virtual void publishSnapshot(Snapshot which, uint64_t seq, std::optional<std::string> bytes) = 0;
  // Whether any /api/events or /stream.mjpg client is connected (the sink skips their work
  // otherwise).
  virtual bool hasEventClients() const = 0;
  virtual bool hasStreamClients() const = 0;
  // Ends every stream, answers waiting requests and stops the thread; also done on destruction.
  virtual void stop() = 0;
};

// What the module uses of libesframe, handed to its entry point by the loader (as MqttHost:
// libesframe.so exports its public API only and the module links no libesframe).
struct HttpHost {
  void (*log_line)(LogLevel level, std::string_view message);
  ErrorCode (*error_code_from_errno)(int err);
};

// The module's table: the server (libmicrohttpd) and the JPEG encoder (libturbojpeg).
struct HttpModule {
  // Binds and starts the server's thread; the listening socket's errors name the address.
  Result<std::unique_ptr<HttpService>> (*start_server)(const HttpSinkOptions& options,
                                                       HttpContent& content);
  Result<std::string> (*encode_jpeg)(const RgbaImage& image, int quality);
};
inline constexpr const char kHttpModuleFile[] = "libesframe-http.so";
inline constexpr const char kHttpModuleEntry[] = "esf_http_module_v1";

// The module's table, loaded on the first call (kUnsupported when the module is missing); a
// static libesframe links the module's code in and returns it directly (http_output.cpp).
Result<const HttpModule*> httpModule();

namespace http_module {
extern const HttpHost* g_host;  // the host the entry point was given (http_module.cpp)
}  // namespace http_module

struct HttpClient;
struct HttpRequest;

// libmicrohttpd's side, in the module only (http_server.cpp).
class HttpServer final : public HttpService {
 public:
  static Result<std::unique_ptr<HttpService>> start(const HttpSinkOptions& options,
                                                    HttpContent& content);
  ~HttpServer() override;
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const override { return port_; }
  void publishEvents(const std::string& text) override;
  void publishSnapshot(Snapshot which, uint64_t seq, std::optional<std::string> bytes) override;
  bool hasEventClients() const override { return event_clients_.load() > 0; }
  bool hasStreamClients() const override { return stream_clients_.load() > 0; }
  void stop() override;

  // libmicrohttpd's callbacks (http_server.cpp), public for its C trampolines only.
  int handle(MHD_Connection* connection, const char* url, const char* method,
             HttpRequest*& request);
  void requestDone(HttpRequest* request);
  void clientGone(HttpClient* client);

 private:
  HttpServer(HttpSinkOptions options, HttpContent& content)
      : options_(std::move(options)), content_(content) {}
  bool authorized(MHD_Connection* connection) const;
  int serveSnapshot(MHD_Connection* connection, Snapshot which, HttpRequest*& request);
  int serveStream(MHD_Connection* connection, bool events);

  HttpSinkOptions options_;
  HttpContent& content_;
  std::string password_;
  std::string tls_cert_, tls_key_;
  std::unique_ptr<HttpConnectionGuard> guard_;  // outlives the daemon, whose callbacks use it
  MHD_Daemon* daemon_ = nullptr;
  int port_ = 0;
  std::atomic<int> event_clients_{0}, stream_clients_{0};

  mutable std::mutex mutex_;  // guards what follows
  bool stopped_ = false;
  std::vector<std::shared_ptr<HttpClient>> clients_;  // open streams
  std::vector<HttpRequest*> waiting_;                 // suspended snapshot requests
  struct Cached {
    uint64_t seq = 0;
    std::optional<std::string> bytes;
    bool made = false;
  };
  Cached graph_, frame_;
};

}  // namespace esf

// The module's one exported entry point: keeps `host` (valid for the process's lifetime) and
// returns the table above, valid as long.
extern "C" ESF_MODULE_ENTRY const esf::HttpModule* esf_http_module_v1(const esf::HttpHost* host);
