#include "core/cpu/row_pool.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <system_error>

#include "base/signal_free_thread.hpp"

namespace esf {
namespace {

// Rows of band `index` of `count` over [0, rows): the first rows % count bands take one more.
void bandRange(int rows, int count, int index, int& begin, int& end) {
  const int base = rows / count, extra = rows % count;
  begin = index * base + (index < extra ? index : extra);
  end = begin + base + (index < extra ? 1 : 0);
}

}  // namespace

int RowPool::defaultThreads() {
  const int cores = int(std::thread::hardware_concurrency());
  return cores < 1 ? 1 : cores;
}

RowPool::RowPool(int threads) {
  const int wanted = threads <= 0 ? defaultThreads() : threads;
  threads_ = wanted;
  try {
    for (int i = 1; i < wanted; ++i)
      workers_.push_back(startSignalFreeThread([this, i] { workerLoop(i); }));
  } catch (const std::system_error& e) {
    // Bands are split by threads_, which the started workers already read: stop them and run
    // every band on the caller, and say why through status().
    stopWorkers();
    threads_ = 1;
    status_ = fail(ErrorCode::kInternal, "the CPU executor's row pool: cannot start worker ",
                   std::to_string(workers_.size() + 1), " of ", std::to_string(wanted - 1), ": ",
                   e.what());
    workers_.clear();
  }
}

RowPool::~RowPool() {
  stopWorkers();
}

void RowPool::stopWorkers() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_)
    if (t.joinable()) t.join();
}

void RowPool::forEachBand(int rows, const Band& band) {
  if (rows <= 0) return;
  if (threads_ == 1 || rows == 1) {
    band(0, rows, 0);
    return;
  }
  {
    std::lock_guard lock(mutex_);
    band_ = &band;
    rows_ = rows;
    pending_ = threads_ - 1;
    ++generation_;
  }
  wake_.notify_all();
  int begin, end;
  bandRange(rows, threads_, 0, begin, end);
  if (begin < end) band(begin, end, 0);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
  band_ = nullptr;
}

void RowPool::forEachStripe(int rows, int stripe_rows, const Band& band) {
  if (rows <= 0) return;
  const int height = std::max(stripe_rows, 1);
  const int stripes = int((int64_t(rows) + height - 1) / height);
  std::atomic<int> next{0};
  // One band per thread, each index once: a band of forEachBand over `threads` rows is one row.
  forEachBand(std::min(threads_, stripes), [&](int, int, int index) {
    for (int s = next.fetch_add(1, std::memory_order_relaxed); s < stripes;
         s = next.fetch_add(1, std::memory_order_relaxed)) {
      const int begin = int(int64_t(s) * height);
      band(begin, int(std::min<int64_t>(rows, int64_t(begin) + height)), index);
    }
  });
}

void RowPool::workerLoop(int index) {
  uint64_t seen = 0;
  for (;;) {
    const Band* band;
    int rows;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
      if (stopping_) return;
      seen = generation_;
      band = band_;
      rows = rows_;
    }
    int begin, end;
    bandRange(rows, threads_, index, begin, end);
    if (begin < end) (*band)(begin, end, index);
    {
      std::lock_guard lock(mutex_);
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

}  // namespace esf
