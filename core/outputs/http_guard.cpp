#include "core/outputs/http_guard.hpp"

#include "core/outputs/http_guard_events.hpp"

#include <arpa/inet.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <algorithm>

#include "esframe/base/log.hpp"

namespace esf {

struct HttpConnection {
  int fd = -1;
  std::string address;
  std::chrono::steady_clock::time_point deadline;
  bool pending = false;
  bool shut = false;                           // shut down by the guard: never pending again
  std::list<HttpConnection*>::iterator where;  // in pending_, while pending
};

HttpConnectionGuard::HttpConnectionGuard(int timeout_s) : timeout_(std::max(timeout_s, 1)) {
  // The guard's thread takes no signal: they are the pipeline's.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  thread_ = std::thread([this] { run(); });
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

HttpConnectionGuard::~HttpConnectionGuard() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

HttpConnection* HttpConnectionGuard::opened(int fd, std::string address) {
  auto* c = new HttpConnection;
  c->fd = fd;
  c->address = std::move(address);
  std::lock_guard lock(mutex_);
  makePending(c);
  // The oldest pending connection of this address goes first, so one address cannot push out
  // another's; then the oldest of all.
  if (pending_by_address_[c->address] > kPendingPerAddress) {
    auto oldest = std::find_if(pending_.begin(), pending_.end(),
                               [&](const HttpConnection* p) { return p->address == c->address; });
    shutDown(*oldest, "more pending connections from its address than allowed");
  }
  if (pending_.size() > kPendingTotal)
    shutDown(pending_.front(), "more pending connections than allowed");
  return c;
}

void HttpConnectionGuard::closed(HttpConnection* c) {
  if (!c) return;
  {
    std::lock_guard lock(mutex_);
    leavePending(c);
  }
  delete c;
}

void HttpConnectionGuard::authorized(HttpConnection* c) {
  if (!c) return;
  std::lock_guard lock(mutex_);
  leavePending(c);
}

void HttpConnectionGuard::requestEnded(HttpConnection* c) {
  if (!c) return;
  std::lock_guard lock(mutex_);
  if (!c->pending && !c->shut) makePending(c);
}

size_t HttpConnectionGuard::pendingCount() const {
  std::lock_guard lock(mutex_);
  return pending_.size();
}

void HttpConnectionGuard::makePending(HttpConnection* c) {
  c->deadline = std::chrono::steady_clock::now() + timeout_;
  c->pending = true;
  c->where = pending_.insert(pending_.end(), c);
  ++pending_by_address_[c->address];
  // A later deadline than those waited for: the thread needs waking only when it waited for none.
  if (pending_.size() == 1) wake_.notify_one();
}

void HttpConnectionGuard::leavePending(HttpConnection* c) {
  if (!c->pending) return;
  c->pending = false;
  pending_.erase(c->where);
  auto count = pending_by_address_.find(c->address);
  if (--count->second == 0) pending_by_address_.erase(count);
}

void HttpConnectionGuard::shutDown(HttpConnection* c, const char* why) {
  leavePending(c);
  c->shut = true;
  // libmicrohttpd sees the end of the stream on its next read and closes the connection.
  ::shutdown(c->fd, SHUT_RDWR);
  logDebug("HTTP sink: closed a connection from " + c->address + ": " + why);
}

void httpConnectionEvent(void* cls, MHD_Connection* connection, void** socket_context,
                         MHD_ConnectionNotificationCode code) {
  auto* guard = static_cast<HttpConnectionGuard*>(cls);
  if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
    guard->closed(static_cast<HttpConnection*>(*socket_context));
    *socket_context = nullptr;
    return;
  }
  const MHD_ConnectionInfo* fd =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  const MHD_ConnectionInfo* peer =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (!fd || !peer) return;
  char text[INET6_ADDRSTRLEN] = "?";
  const sockaddr* addr = peer->client_addr;
  if (addr->sa_family == AF_INET6)
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(addr)->sin6_addr, text,
                sizeof text);
  else if (addr->sa_family == AF_INET)
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(addr)->sin_addr, text, sizeof text);
  *socket_context = guard->opened(fd->connect_fd, text);
}

void HttpConnectionGuard::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const auto now = std::chrono::steady_clock::now();
    // Deadlines are in pending_'s order: each connection's is its entry time plus timeout_.
    while (!pending_.empty() && pending_.front()->deadline <= now)
      shutDown(pending_.front(), "no whole request within the timeout");
    if (pending_.empty()) {
      wake_.wait_for(lock, timeout_);
    } else {
      // A copy: the connection may be closed and freed while the lock is let go.
      const auto deadline = pending_.front()->deadline;
      wake_.wait_until(lock, deadline);
    }
  }
}

}  // namespace esf
