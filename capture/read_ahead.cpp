#include "capture/read_ahead.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "base/signal_free_thread.hpp"

namespace esf {
namespace {

// The stdio cookie of an InterruptibleFile: the fd read, and the eventfd that interrupts it.
struct PollingReader {
  UniqueFd fd;
  UniqueFd wake;
};

ssize_t pollingRead(void* cookie, char* buf, size_t size) {
  auto* reader = static_cast<PollingReader*>(cookie);
  for (;;) {
    pollfd fds[2] = {{reader->wake.get(), POLLIN, 0}, {reader->fd.get(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (fds[0].revents != 0) {
      errno = ECANCELED;
      return -1;
    }
    // Readable, at its end (POLLHUP) or failed (POLLERR): read(2) returns at once and says which.
    const ssize_t n = ::read(reader->fd.get(), buf, size);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    return n;
  }
}

int closePollingReader(void* cookie) {
  delete static_cast<PollingReader*>(cookie);
  return 0;
}

}  // namespace

int InterruptibleFile::fd() const {
  return static_cast<const PollingReader*>(reader_)->fd.get();
}

Result<InterruptibleFile> InterruptibleFile::open(UniqueFd fd, const std::string& name) {
  UniqueFd wake(::eventfd(0, EFD_CLOEXEC));
  if (!wake.valid())
    return fail(errorCodeFromErrno(errno), name, ": eventfd: ", std::strerror(errno));
  const int wake_fd = wake.get();
  auto* reader = new PollingReader{std::move(fd), std::move(wake)};
  const cookie_io_functions_t io = {pollingRead, nullptr, nullptr, closePollingReader};
  InterruptibleFile file;
  file.file_.reset(::fopencookie(reader, "rb", io));
  if (!file.file_) {
    const int err = errno;
    delete reader;
    return fail(errorCodeFromErrno(err), name, ": fopencookie: ", std::strerror(err));
  }
  // Before any read: unbuffered, so that readDirect never skips bytes held in the stream.
  if (std::setvbuf(file.file_.get(), nullptr, _IONBF, 0) != 0)
    return fail(ErrorCode::kInternal, name, ": setvbuf failed");
  file.reader_ = reader;
  file.wake_fd_ = wake_fd;
  struct stat st;
  if (::fstat(reader->fd.get(), &st) == 0 && S_ISREG(st.st_mode))
    file.parallel_ = std::make_unique<ParallelPread>(ParallelPread::defaultHelpers());
  return file;
}

size_t InterruptibleFile::readDirect(uint8_t* dst, size_t size, bool& failed) const {
  if (parallel_) {
    // A regular file never blocks, so no poll; ParallelPread splits only payloads worth it. The
    // unbuffered stream holds no bytes ahead: the fd's offset is where the payload starts.
    const int fd = static_cast<PollingReader*>(reader_)->fd.get();
    const off_t at = ::lseek(fd, 0, SEEK_CUR);
    if (at >= 0) {
      const size_t got = parallel_->read(fd, at, dst, size, failed);
      if (::lseek(fd, at + off_t(got), SEEK_SET) < 0) failed = true;
      return got;
    }
  }
  size_t got = 0;
  while (got < size) {
    const ssize_t n = pollingRead(reader_, reinterpret_cast<char*>(dst) + got, size - got);
    if (n == 0) break;
    if (n < 0) {
      failed = true;
      break;
    }
    got += size_t(n);
  }
  return got;
}

void InterruptibleFile::interrupt() const {
  const uint64_t one = 1;
  // An eventfd's counter only fails to take 1 when it is near 2^64: it is already signalled.
  (void)!::write(wake_fd_, &one, sizeof one);
}

ReadAhead::ReadAhead(std::string name, Producer produce, std::function<void()> interrupt)
    : name_(std::move(name)), produce_(std::move(produce)), interrupt_(std::move(interrupt)) {}

ReadAhead::~ReadAhead() {
  if (!reader_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  interrupt_();
  reader_.join();
}

Status ReadAhead::start() {
  frame_ready_.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!frame_ready_.valid())
    return fail(errorCodeFromErrno(errno), name_, ": eventfd: ", std::strerror(errno));
  try {
    reader_ = startSignalFreeThread([this] { readLoop(); });
  } catch (const std::system_error& e) {
    return fail(ErrorCode::kInternal, name_, ": cannot start the reader thread: ", e.what());
  }
  return {};
}

Result<const std::vector<uint8_t>*> ReadAhead::next() {
  if (!reader_.joinable())
    if (Status s = start(); !s) return s.error();
  std::unique_lock lock(mutex_);
  if (held_ != 0) {  // the caller is done with the frame it held: the reader may refill it
    held_ = 0;
    // Woken after the lock is let go, the reader does not wake only to wait for it.
    lock.unlock();
    changed_.notify_all();
    lock.lock();
  }
  while (ready_ == 0 && !ended_) {
    lock.unlock();
    pollfd ready = {frame_ready_.get(), POLLIN, 0};
    if (::poll(&ready, 1, -1) < 0) {
      if (errno == EINTR)
        return fail(ErrorCode::kTryAgain, name_, ": interrupted while waiting for a frame");
      return fail(errorCodeFromErrno(errno), name_, ": poll: ", std::strerror(errno));
    }
    uint64_t count;
    (void)!::read(frame_ready_.get(), &count, sizeof count);  // resets it; EAGAIN if already
    lock.lock();
  }
  if (ready_ == 0) {
    if (end_error_) return *end_error_;
    return nullptr;
  }
  const size_t slot = first_ready_;
  first_ready_ = (first_ready_ + 1) % kSlots;
  --ready_;
  held_ = 1;
  return &slots_[slot];
}

void ReadAhead::readLoop() {
  for (;;) {
    size_t slot;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return stop_ || ready_ + held_ < kSlots; });
      if (stop_) return;
      slot = (first_ready_ + ready_) % kSlots;
    }
    // The slot is the reader's alone until it is counted ready: no lock while reading.
    Result<bool> more = produce_(slots_[slot]);
    {
      std::lock_guard lock(mutex_);
      if (stop_) return;
      if (!more)
        end_error_ = more.error();
      else if (*more)
        ++ready_;
      ended_ = !more || !*more;
    }
    const uint64_t one = 1;
    (void)!::write(frame_ready_.get(), &one, sizeof one);
    if (!more || !*more) return;
  }
}

}  // namespace esf
