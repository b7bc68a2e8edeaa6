#include "core/import/staging_copier.hpp"

#include <cstring>
#include <system_error>
#include <utility>

#include "base/signal_free_thread.hpp"

namespace esf {

StagingCopier::~StagingCopier() {
  if (!worker_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  worker_.join();  // the worker finishes what it holds first
}

void StagingCopier::start(std::vector<Copy> copies) {
  wait();
  if (!worker_.joinable()) {
    try {
      worker_ = startSignalFreeThread([this] { workerLoop(); });
    } catch (const std::system_error&) {  // no thread to be had: the caller copies
    }
    if (!worker_.joinable()) {
      run(copies);
      return;
    }
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    copies_ = std::move(copies);
    busy_ = true;
  }
  wake_.notify_one();
}

void StagingCopier::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return !busy_; });
}

void StagingCopier::run(const std::vector<Copy>& copies) {
  for (const Copy& c : copies) {
    if (c.src_stride == c.row_bytes) {
      std::memcpy(c.dst, c.src, c.row_bytes * size_t(c.rows));
      continue;
    }
    for (int y = 0; y < c.rows; ++y)
      std::memcpy(c.dst + c.row_bytes * size_t(y), c.src + c.src_stride * size_t(y), c.row_bytes);
  }
}

void StagingCopier::workerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return busy_ || stopping_; });
    if (!busy_) return;  // stopping, nothing left
    std::vector<Copy> copies = std::move(copies_);
    lock.unlock();
    run(copies);
    lock.lock();
    busy_ = false;
    done_.notify_all();
  }
}

}  // namespace esf
