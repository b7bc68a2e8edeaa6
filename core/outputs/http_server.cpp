#include "core/outputs/http_server.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <microhttpd.h>

#include <cerrno>
#include <cstring>
#include <deque>
#include <fstream>
#include <iterator>

#include "core/outputs/http_auth.hpp"
#include "core/outputs/http_guard_events.hpp"
#include "esframe/base/log.hpp"
#include "esframe/base/unique_fd.hpp"
#include "glsl_es/embedded_file.hpp"

namespace esf {

extern const EmbeddedFile esf_http_page[];
extern const std::size_t esf_http_page_count;

// A /api/events or /stream.mjpg connection: the messages it has yet to send.
struct HttpClient {
  HttpServer* server = nullptr;
  MHD_Connection* connection = nullptr;
  bool events = true;  // false: MJPEG
  std::mutex mutex;    // guards what follows (the pipeline's thread and the server's meet here)
  std::deque<std::string> queue;
  std::string current;
  size_t offset = 0;
  bool suspended = false;  // waiting for a message
  bool closed = false;     // the server stops, or the client fell behind (dropped)
  bool dropped = false;
};

// A request's state between libmicrohttpd's calls: a snapshot request waits suspended.
struct HttpRequest {
  MHD_Connection* connection = nullptr;
  HttpConnection* guarded = nullptr;  // its connection as the guard knows it
  Snapshot which = Snapshot::kGraph;
  bool resumed = false;     // was suspended until publishSnapshot() or stop()
  bool authorized = false;  // passed auth: its connection left the guard's pending ones
};

namespace {

constexpr std::string_view kServerWhat = "HTTP sink";
constexpr const char* kMjpegBoundary = "esframe-frame";
// Connections beyond the streams, for the short requests (a Prometheus scrape, /api/frame, the
// page's files): open streams never leave a scrape waiting to be accepted.
constexpr int kRequestConnections = 16;
// Beyond the guard's pending connections: those accepted in one burst before the evicted ones
// are seen closed.
constexpr int kAcceptBurst = 64;
// TLS 1.2 and 1.3 only, GnuTLS's NORMAL ciphers otherwise (docs/output-formats.md).
constexpr const char* kTlsPriorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2";
// What a stream request past the limit is told: EventSource does not retry a 503 by itself, the
// page (http_page/page.js) does after this long.
constexpr const char* kBusyRetrySeconds = "3";

MHD_Result yes(bool ok) {
  return ok ? MHD_YES : MHD_NO;
}

MHD_Result accessHandler(void* cls, MHD_Connection* connection, const char* url, const char* method,
                         const char* /*version*/, const char* /*upload*/, size_t* upload_size,
                         void** state) {
  auto*& request = reinterpret_cast<HttpRequest*&>(*state);
  // A body is never read: a request with one is answered and the connection closed.
  if (*upload_size != 0) *upload_size = 0;
  return yes(static_cast<HttpServer*>(cls)->handle(connection, url, method, request) == MHD_YES);
}

void completed(void* cls, MHD_Connection* /*connection*/, void** state,
               MHD_RequestTerminationCode /*code*/) {
  static_cast<HttpServer*>(cls)->requestDone(static_cast<HttpRequest*>(*state));
  *state = nullptr;
}

void logMhd(void* /*cls*/, const char* format, va_list args) {
  char line[512];
  std::vsnprintf(line, sizeof line, format, args);
  std::string text = line;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  logDebug(std::string(kServerWhat) + ": " + text);
}

ssize_t readStream(void* cls, uint64_t /*pos*/, char* buf, size_t max) {
  auto* c = static_cast<HttpClient*>(cls);
  std::lock_guard lock(c->mutex);
  if (c->offset == c->current.size()) {
    if (c->closed)
      return c->dropped ? MHD_CONTENT_READER_END_WITH_ERROR : MHD_CONTENT_READER_END_OF_STREAM;
    if (c->queue.empty()) {
      // Nothing to send: off the event loop until the next message (no busy polling).
      c->suspended = true;
      MHD_suspend_connection(c->connection);
      return 0;
    }
    c->current = std::move(c->queue.front());
    c->queue.pop_front();
    c->offset = 0;
  }
  const size_t n = std::min(max, c->current.size() - c->offset);
  std::memcpy(buf, c->current.data() + c->offset, n);
  c->offset += n;
  return ssize_t(n);
}

void freeStream(void* cls) {
  auto* c = static_cast<HttpClient*>(cls);
  c->server->clientGone(c);
}

// Adds a message for one client; one that has `limit` messages waiting is dropped instead.
void push(HttpClient& c, const std::string& message, size_t limit) {
  std::lock_guard lock(c.mutex);
  if (c.closed) return;
  if (c.queue.size() >= limit) {
    c.queue.clear();
    c.closed = c.dropped = true;
    logInfo(std::string(kServerWhat) + ": dropped a client that fell " + std::to_string(limit) +
            " messages behind");
  } else {
    c.queue.push_back(message);
  }
  if (c.suspended) {
    c.suspended = false;
    MHD_resume_connection(c.connection);
  }
}

void addCommonHeaders(MHD_Response* r) {
  MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
}

MHD_Result respond(MHD_Connection* connection, unsigned status, std::string_view body,
                   const char* type, std::optional<uint64_t> seq = std::nullopt,
                   const char* retry_after = nullptr) {
  MHD_Response* r = MHD_create_response_from_buffer(body.size(), const_cast<char*>(body.data()),
                                                    MHD_RESPMEM_MUST_COPY);
  if (!r) return MHD_NO;
  MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
  addCommonHeaders(r);
  if (seq) MHD_add_response_header(r, "X-Esframe-Seq", std::to_string(*seq).c_str());
  if (retry_after) MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, retry_after);
  if (status == MHD_HTTP_METHOD_NOT_ALLOWED) MHD_add_response_header(r, "Allow", "GET, HEAD");
  const MHD_Result result = MHD_queue_response(connection, status, r);
  MHD_destroy_response(r);
  return result;
}

MHD_Result respondText(MHD_Connection* connection, unsigned status, const std::string& text) {
  return respond(connection, status, text + "\n", "text/plain; charset=utf-8");
}

MHD_Result respondBusy(MHD_Connection* connection, int streams) {
  return respond(connection, MHD_HTTP_SERVICE_UNAVAILABLE,
                 "all " + std::to_string(streams) + " streams are taken; retry later\n",
                 "text/plain; charset=utf-8", std::nullopt, kBusyRetrySeconds);
}

Result<std::string> readFile(const std::string& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail(errorCodeFromErrno(errno), kServerWhat, ": cannot read ", what, " ", path, ": ",
                std::strerror(errno));
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The listening socket, bound before libmicrohttpd takes it, so a failure names its cause.
Result<UniqueFd> listenOn(const std::string& address, int port, int& family) {
  addrinfo hints{};
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string where = address + ":" + std::to_string(port);
  if (int e = getaddrinfo(address.c_str(), std::to_string(port).c_str(), &hints, &found); e != 0)
    return fail(ErrorCode::kInvalidArgument, kServerWhat, ": ", address,
                " is not an IP address: ", gai_strerror(e));
  std::unique_ptr<addrinfo, void (*)(addrinfo*)> list(found, freeaddrinfo);
  family = found->ai_family;
  UniqueFd fd(::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid())
    return fail(errorCodeFromErrno(errno), kServerWhat, ": socket: ", std::strerror(errno));
  const int on = 1;
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (found->ai_family == AF_INET6)
    ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
  if (::bind(fd.get(), found->ai_addr, found->ai_addrlen) != 0 || ::listen(fd.get(), 64) != 0) {
    const int err = errno;
    return fail(err == EADDRINUSE ? ErrorCode::kBusy : errorCodeFromErrno(err), kServerWhat,
                ": cannot listen on ", where, ": ", std::strerror(err));
  }
  return fd;
}

bool isLoopback(const sockaddr_storage& bound) {
  if (bound.ss_family == AF_INET)
    return (ntohl(reinterpret_cast<const sockaddr_in&>(bound).sin_addr.s_addr) >> 24) == 127;
  return IN6_IS_ADDR_LOOPBACK(&reinterpret_cast<const sockaddr_in6&>(bound).sin6_addr);
}

const EmbeddedFile* pageFile(std::string_view url) {
  const std::string_view name = url == "/" ? "index.html" : url.substr(1);
  for (size_t i = 0; i < esf_http_page_count; ++i)
    if (esf_http_page[i].name == name) return &esf_http_page[i];
  return nullptr;
}

const char* pageType(std::string_view name) {
  if (name.ends_with(".html")) return "text/html; charset=utf-8";
  if (name.ends_with(".css")) return "text/css; charset=utf-8";
  return "text/javascript; charset=utf-8";
}

}  // namespace

Result<std::unique_ptr<HttpService>> HttpServer::start(const HttpSinkOptions& options,
                                                       HttpContent& content) {
  std::unique_ptr<HttpServer> server(new HttpServer(options, content));
  if (!options.user.empty()) {
    Result<std::string> text = readFile(options.password_file, "password file");
    if (!text) return text.error();
    Result<std::string> password = passwordFromFile(*text, options.password_file);
    if (!password) return password.error();
    server->password_ = std::move(*password);
  }
  if (!options.cert.empty()) {
    Result<std::string> cert = readFile(options.cert, "certificate");
    if (!cert) return cert.error();
    Result<std::string> key = readFile(options.key, "key");
    if (!key) return key.error();
    server->tls_cert_ = std::move(*cert);
    server->tls_key_ = std::move(*key);
  }
  int family = AF_INET;
  Result<UniqueFd> fd = listenOn(options.address, options.port, family);
  if (!fd) return fd.error();
  sockaddr_storage bound{};
  socklen_t length = sizeof bound;
  ::getsockname(fd->get(), reinterpret_cast<sockaddr*>(&bound), &length);
  server->port_ = ntohs(family == AF_INET6 ? reinterpret_cast<sockaddr_in6&>(bound).sin6_port
                                           : reinterpret_cast<sockaddr_in&>(bound).sin_port);

  const bool loopback = isLoopback(bound);
  const std::string url = std::string(server->tls_cert_.empty() ? "http" : "https") + "://" +
                          (family == AF_INET6 ? "[" : "") + options.address +
                          (family == AF_INET6 ? "]" : "") + ":" + std::to_string(server->port_) +
                          "/";
  server->guard_ = std::make_unique<HttpConnectionGuard>(options.timeout_s);

  unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
                   MHD_USE_ERROR_LOG;
  if (family == AF_INET6) flags |= MHD_USE_IPv6;
  if (!server->tls_cert_.empty()) flags |= MHD_USE_TLS;
  std::vector<MHD_OptionItem> items = {
      {MHD_OPTION_EXTERNAL_LOGGER, intptr_t(&logMhd), nullptr},  // first: it covers the others
      {MHD_OPTION_CONNECTION_LIMIT,
       options.clients + kRequestConnections + intptr_t(kPendingTotal) + kAcceptBurst, nullptr},
      {MHD_OPTION_CONNECTION_TIMEOUT, options.timeout_s, nullptr},
      {MHD_OPTION_CONNECTION_MEMORY_LIMIT, 32 * 1024, nullptr},
      {MHD_OPTION_NOTIFY_COMPLETED, intptr_t(&completed), server.get()},
      {MHD_OPTION_NOTIFY_CONNECTION, intptr_t(&httpConnectionEvent), server->guard_.get()},
      {MHD_OPTION_LISTEN_SOCKET, fd->get(), nullptr},
  };
  if (!server->tls_cert_.empty()) {
    items.push_back({MHD_OPTION_HTTPS_MEM_CERT, 0, server->tls_cert_.data()});
    items.push_back({MHD_OPTION_HTTPS_MEM_KEY, 0, server->tls_key_.data()});
    items.push_back({MHD_OPTION_HTTPS_PRIORITIES, 0, const_cast<char*>(kTlsPriorities)});
  }
  items.push_back({MHD_OPTION_END, 0, nullptr});
  // The server's thread takes no signal: SIGINT and SIGTERM reach the thread that stops the run.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  server->daemon_ = MHD_start_daemon(flags, 0, nullptr, nullptr, &accessHandler, server.get(),
                                     MHD_OPTION_ARRAY, items.data(), MHD_OPTION_END);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  if (!server->daemon_)
    return fail(ErrorCode::kInternal, kServerWhat, ": libmicrohttpd could not start on ",
                options.address, ":", std::to_string(server->port_),
                server->tls_cert_.empty() ? "" : " (is the certificate and key PEM?)");
  (void)fd->release();  // the daemon closes it when it stops
  logInfo(std::string(kServerWhat) + ": listening on " + url);
  // Said once at start, whatever the log level: what a non-loopback address exposes.
  if (!loopback && options.user.empty())
    logWarning(std::string(kServerWhat) + ": " + url +
               " serves the camera's frames and figures to anyone who reaches it: no basic auth "
               "(user, password-file)" +
               (server->tls_cert_.empty() ? " and no TLS (cert, key)" : ""));
  else if (!loopback && server->tls_cert_.empty())
    logWarning(std::string(kServerWhat) + ": " + url + " takes user " + options.user +
               "'s password in the clear, readable on the network: no TLS (cert, key)");
  return std::unique_ptr<HttpService>(std::move(server));
}

HttpServer::~HttpServer() {
  stop();
}

void HttpServer::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    stopped_ = true;
    for (HttpRequest* r : waiting_) {
      r->resumed = true;
      MHD_resume_connection(r->connection);
    }
    waiting_.clear();
    for (const auto& c : clients_) {
      std::lock_guard client_lock(c->mutex);
      c->queue.clear();
      c->closed = true;
      if (c->suspended) {
        c->suspended = false;
        MHD_resume_connection(c->connection);
      }
    }
  }
  if (daemon_) MHD_stop_daemon(daemon_);
  daemon_ = nullptr;
}

bool HttpServer::authorized(MHD_Connection* connection) const {
  if (options_.user.empty()) return true;
  return basicAuthMatches(
      MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION),
      options_.user, password_);
}

int HttpServer::handle(MHD_Connection* connection, const char* url, const char* method,
                       HttpRequest*& request) {
  if (!request) {
    request = new HttpRequest{connection};
    if (const MHD_ConnectionInfo* info =
            MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT))
      request->guarded = static_cast<HttpConnection*>(info->socket_context);
  }
  const std::string_view path = url;
  if (request->resumed) return serveSnapshot(connection, request->which, request);
  if (std::strcmp(method, "GET") != 0 && std::strcmp(method, "HEAD") != 0)
    return respondText(connection, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD");
  if (!authorized(connection)) {
    MHD_Response* r = MHD_create_response_from_buffer(13, const_cast<char*>("unauthorized\n"),
                                                      MHD_RESPMEM_PERSISTENT);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
    addCommonHeaders(r);
    const MHD_Result result = MHD_queue_basic_auth_fail_response(connection, "esframe", r);
    MHD_destroy_response(r);
    return result;
  }
  // Without auth, a page of another name whose address became this server's (DNS rebinding)
  // could read it from a browser: its Host header gives it away.
  if (options_.user.empty() &&
      !hostNamesThisServer(MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Host"),
                           options_.allowed_hosts))
    return respondText(connection, 421, "the Host header names another server");
  if (!request->authorized) {
    request->authorized = true;
    guard_->authorized(request->guarded);
  }
  if (path == "/metrics") {
    std::optional<std::string> text = content_.metrics();
    if (!text) return respondText(connection, MHD_HTTP_SERVICE_UNAVAILABLE, "no frame yet");
    return respond(connection, MHD_HTTP_OK, *text, "text/plain; version=0.0.4; charset=utf-8");
  }
  if (path == "/api/frame") {
    const char* scopes = MHD_lookup_connection_value(connection, MHD_GET_ARGUMENT_KIND, "scopes");
    std::optional<HttpContent::FrameJson> frame =
        content_.frameJson(scopes && std::string_view(scopes) == "1");
    if (!frame) return respondText(connection, MHD_HTTP_SERVICE_UNAVAILABLE, "no frame yet");
    return respond(connection, MHD_HTTP_OK, frame->json, "application/json", frame->seq);
  }
  if (path == "/api/events") return serveStream(connection, true);
  if ((path == "/stream.mjpg" || path == "/frame.jpg") && options_.snapshot_every == 0)
    return respondText(connection, MHD_HTTP_NOT_FOUND, "snapshots are off (snapshot-every=0)");
  if (path == "/stream.mjpg") return serveStream(connection, false);
  if (path == "/graph.png") return serveSnapshot(connection, Snapshot::kGraph, request);
  if (path == "/frame.jpg") return serveSnapshot(connection, Snapshot::kFrame, request);
  if (const EmbeddedFile* file = pageFile(path))
    return respond(connection, MHD_HTTP_OK, file->text, pageType(file->name));
  return respondText(connection, MHD_HTTP_NOT_FOUND, "not found");
}

int HttpServer::serveSnapshot(MHD_Connection* connection, Snapshot which, HttpRequest*& request) {
  std::unique_lock lock(mutex_);
  const Cached& cached = which == Snapshot::kGraph ? graph_ : frame_;
  const std::optional<uint64_t> latest = content_.latestSeq();
  const uint64_t window = which == Snapshot::kGraph ? 1 : uint64_t(options_.snapshot_every);
  const bool fresh = cached.made && latest && cached.seq + window > *latest;
  if (fresh || request->resumed) {
    if (!cached.made) return respondText(connection, MHD_HTTP_SERVICE_UNAVAILABLE, "no frame yet");
    if (!cached.bytes)
      return respondText(connection, MHD_HTTP_INTERNAL_SERVER_ERROR, "cannot draw this image");
    return respond(connection, MHD_HTTP_OK, *cached.bytes,
                   which == Snapshot::kGraph ? "image/png" : "image/jpeg", cached.seq);
  }
  if (stopped_) return respondText(connection, MHD_HTTP_SERVICE_UNAVAILABLE, "stopping");
  // Made on the pipeline's next frame: wait off the event loop until then.
  request->which = which;
  waiting_.push_back(request);
  MHD_suspend_connection(connection);
  lock.unlock();
  content_.requestSnapshot(which);
  return MHD_YES;
}

int HttpServer::serveStream(MHD_Connection* connection, bool events) {
  std::lock_guard lock(mutex_);
  if (stopped_) return respondText(connection, MHD_HTTP_SERVICE_UNAVAILABLE, "stopping");
  // A stream that went away while it waited for a message still counts until the next frame
  // resumes it and libmicrohttpd finds the socket closed.
  if (clients_.size() >= size_t(options_.clients)) return respondBusy(connection, options_.clients);
  auto client = std::make_unique<HttpClient>();
  client->server = this;
  client->connection = connection;
  client->events = events;
  // Tells EventSource to reconnect after a second when the connection drops.
  if (events) client->queue.push_back("retry: 1000\n\n");
  MHD_Response* r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 64 * 1024, &readStream,
                                                      client.get(), &freeStream);
  if (!r) return MHD_NO;
  MHD_add_response_header(
      r, MHD_HTTP_HEADER_CONTENT_TYPE,
      events ? "text/event-stream"
             : (std::string("multipart/x-mixed-replace; boundary=") + kMjpegBoundary).c_str());
  addCommonHeaders(r);
  const MHD_Result result = MHD_queue_response(connection, MHD_HTTP_OK, r);
  MHD_destroy_response(r);
  if (result != MHD_YES) return result;  // the callback freed nothing: the client goes here
  (events ? event_clients_ : stream_clients_).fetch_add(1);
  clients_.push_back(std::move(client));
  if (!events) content_.requestSnapshot(Snapshot::kFrame);
  return MHD_YES;
}

void HttpServer::requestDone(HttpRequest* request) {
  if (!request) return;
  if (request->authorized) guard_->requestEnded(request->guarded);
  {
    std::lock_guard lock(mutex_);
    std::erase(waiting_, request);
  }
  delete request;
}

void HttpServer::clientGone(HttpClient* client) {
  std::lock_guard lock(mutex_);
  for (auto it = clients_.begin(); it != clients_.end(); ++it) {
    if (it->get() != client) continue;
    (client->events ? event_clients_ : stream_clients_).fetch_sub(1);
    clients_.erase(it);
    return;
  }
}

void HttpServer::publishEvents(const std::string& text) {
  std::lock_guard lock(mutex_);
  for (const auto& c : clients_)
    if (c->events) push(*c, text, size_t(options_.queue));
}

void HttpServer::publishSnapshot(Snapshot which, uint64_t seq, std::optional<std::string> bytes) {
  std::lock_guard lock(mutex_);
  Cached& cached = which == Snapshot::kGraph ? graph_ : frame_;
  cached.seq = seq;
  cached.made = true;
  cached.bytes = std::move(bytes);
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    HttpRequest* r = *it;
    if (r->which != which) {
      ++it;
      continue;
    }
    r->resumed = true;
    MHD_resume_connection(r->connection);
    it = waiting_.erase(it);
  }
  if (which != Snapshot::kFrame || !cached.bytes) return;
  std::string part =
      std::string("--") + kMjpegBoundary +
      "\r\nContent-Type: image/jpeg\r\nContent-Length: " + std::to_string(cached.bytes->size()) +
      "\r\nX-Esframe-Seq: " + std::to_string(seq) + "\r\n\r\n" + *cached.bytes + "\r\n";
  for (const auto& c : clients_)
    if (!c->events) push(*c, part, size_t(options_.queue));
}

}  // namespace esf
