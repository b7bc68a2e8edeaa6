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

#include "esframe/base/result.hpp"
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
  // together); nullopt before the first frame.
  virtual std::optional<std::string> metrics() = 0;
  struct FrameJson {
    uint64_t seq = 0;
    std::string json;
  };
  virtual std::optional<FrameJson> frameJson() = 0;
  // The sequence number of the latest frame delivered (nullopt before the first).
  virtual std::optional<uint64_t> latestSeq() = 0;
  // Someone waits for a snapshot of a frame after `after_seq` (or of any, when nullopt).
  virtual void requestSnapshot(Snapshot which) = 0;
};

struct HttpClient;
struct HttpRequest;

class HttpServer {
 public:
  // Binds and starts the thread; the listening socket's errors name the address.
  static Result<std::unique_ptr<HttpServer>> start(const HttpSinkOptions& options,
                                                   HttpContent& content);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The port bound (the one asked for, or the kernel's choice for port 0).
  int port() const { return port_; }
  // One frame's SSE event text ("data: ...\n\n" lines) to every /api/events client.
  void publishEvents(const std::string& text);
  // A snapshot's encoded bytes for the frame `seq` (nullopt: it could not be made) to those
  // waiting for it and, for frames, to every /stream.mjpg client.
  void publishSnapshot(Snapshot which, uint64_t seq, std::optional<std::string> bytes);
  // Whether any /api/events or /stream.mjpg client is connected (the sink skips their work
  // otherwise).
  bool hasEventClients() const { return event_clients_.load() > 0; }
  bool hasStreamClients() const { return stream_clients_.load() > 0; }
  // Ends every stream, answers waiting requests and stops the thread; also done by the destructor.
  void stop();

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
