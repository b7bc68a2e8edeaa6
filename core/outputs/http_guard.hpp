#pragma once
// What keeps slow or hostile clients from starving the HTTP server (the module only).
//
// libmicrohttpd 0.9.75 alone does not: MHD_OPTION_CONNECTION_TIMEOUT restarts on every byte, so
// a client dripping a byte per few seconds holds its connection forever, and once
// MHD_OPTION_CONNECTION_LIMIT is reached new connections (a Prometheus scrape) wait in the
// listen queue or are closed. MHD_OPTION_PER_IP_CONNECTION_LIMIT refuses the newest connection,
// which is the honest one when the attacker shares its address (127.0.0.1, a NAT). So the
// server tracks each connection itself (MHD_OPTION_NOTIFY_CONNECTION) and:
//  - a connection is "pending" from its accept, or from the end of its last authorized request,
//    until a request passes auth (a TLS handshake and a half-sent request are pending; so is a
//    request answered 401, whose connection keeps its old deadline);
//  - a pending connection gets `timeout` seconds in all for its request's headers, not per byte:
//    past that a thread of the guard shuts its socket down, and libmicrohttpd closes it;
//  - pending connections are few (kPendingPerAddress from one address, kPendingTotal in all): a
//    new one past either limit evicts the oldest pending one (of its address first), so a
//    client that sends its request at once is always served, and only the slow ones go;
//  - connections past auth (streams, limited by clients=, and short requests) are never
//    evicted, so the slots of an authorized scrape are not shared with unauthenticated ones.
// The socket is shut down (not closed) under the guard's mutex, and libmicrohttpd closes it only
// after its NOTIFY_CLOSED callback, which takes that mutex: the descriptor is never reused under
// the guard's feet.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <list>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace esf {

// Limits of the pending connections (documented in docs/output-formats.md).
inline constexpr size_t kPendingPerAddress = 32;
inline constexpr size_t kPendingTotal = 128;

struct HttpConnection;

class HttpConnectionGuard {
 public:
  explicit HttpConnectionGuard(int timeout_s);
  ~HttpConnectionGuard();  // stops the thread; every connection must be closed by then
  HttpConnectionGuard(const HttpConnectionGuard&) = delete;
  HttpConnectionGuard& operator=(const HttpConnectionGuard&) = delete;

  // A new connection (libmicrohttpd's thread): pending; may evict older pending ones.
  HttpConnection* opened(int fd, std::string address);
  // libmicrohttpd closes the connection after this: it is forgotten and freed.
  void closed(HttpConnection* c);
  // A request passed auth: the connection is no longer pending.
  void authorized(HttpConnection* c);
  // An authorized request ended: pending again with a fresh deadline (keep-alive).
  void requestEnded(HttpConnection* c);
  // For the tests' figures and the log: connections now pending, and evicted or timed out.
  size_t pendingCount() const;

 private:
  void makePending(HttpConnection* c);
  void leavePending(HttpConnection* c);
  void shutDown(HttpConnection* c, const char* why);
  void run();

  const std::chrono::seconds timeout_;
  mutable std::mutex mutex_;  // guards what follows
  std::condition_variable wake_;
  bool stopping_ = false;
  std::list<HttpConnection*> pending_;  // oldest first
  std::map<std::string, size_t> pending_by_address_;
  std::thread thread_;  // last: started when the rest is ready
};

}  // namespace esf
