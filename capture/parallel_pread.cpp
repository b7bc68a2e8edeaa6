#include "capture/parallel_pread.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "base/signal_free_thread.hpp"

namespace esf {

ParallelPread::ParallelPread(int helpers, size_t min_part)
    : helpers_(std::max(helpers, 0)), min_part_(std::max<size_t>(min_part, 1)) {}

int ParallelPread::defaultHelpers() {
  const unsigned cores = std::thread::hardware_concurrency();
  return cores <= 1 ? 0 : int(std::min(cores - 1, 3u));
}

ParallelPread::~ParallelPread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ParallelPread::readPart(int fd, Part& part) {
  while (part.got < part.size) {
    const ssize_t n =
        ::pread(fd, part.dst + part.got, part.size - part.got, part.offset + off_t(part.got));
    if (n == 0) return;  // the end of the file
    if (n < 0) {
      if (errno == EINTR) continue;
      part.error = errno;
      return;
    }
    part.got += size_t(n);
  }
}

bool ParallelPread::startHelpers() {
  if (!threads_.empty() || helpers_failed_) return !threads_.empty();
  try {
    for (int i = 0; i < helpers_; ++i)
      threads_.push_back(startSignalFreeThread([this, i] { helperLoop(size_t(i)); }));
  } catch (const std::system_error&) {  // fewer threads than asked: those started take parts
  }
  helpers_failed_ = threads_.empty();
  return !threads_.empty();
}

size_t ParallelPread::read(int fd, off_t offset, uint8_t* dst, size_t size, bool& failed) {
  size_t count = 1;
  if (helpers_ > 0 && size >= 2 * min_part_ && startHelpers())
    count = std::min(size / min_part_, threads_.size() + 1);
  std::vector<Part> parts(count);
  // Equal parts in multiples of 4 KiB (the page cache's unit), the last one taking the rest.
  const size_t step = count > 1 ? (size / count + 4095) / 4096 * 4096 : size;
  for (size_t i = 0, at = 0; i < parts.size(); ++i) {
    const size_t n = i + 1 == parts.size() ? size - at : std::min(step, size - at);
    parts[i] = Part{dst + at, offset + off_t(at), n, 0, 0};
    at += n;
  }
  if (parts.size() > 1) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      parts_ = parts;
      fd_ = fd;
      pending_ = parts.size() - 1;
      ++generation_;
    }
    wake_.notify_all();
  }
  readPart(fd, parts[0]);
  if (parts.size() > 1) {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    for (size_t i = 1; i < parts.size(); ++i) parts[i] = parts_[i];
  }
  // What was read without a gap: up to the first part that came back short.
  size_t got = 0;
  for (const Part& p : parts) {
    got += p.got;
    if (p.error != 0) {
      failed = true;
      errno = p.error;
      break;
    }
    if (p.got < p.size) break;
  }
  return got;
}

void ParallelPread::helperLoop(size_t index) {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_) return;
    seen = generation_;
    if (index + 1 >= parts_.size()) continue;  // this read has fewer parts than helpers
    Part part = parts_[index + 1];
    const int fd = fd_;
    lock.unlock();
    readPart(fd, part);
    lock.lock();
    parts_[index + 1] = part;
    if (--pending_ == 0) done_.notify_all();
  }
}

}  // namespace esf
