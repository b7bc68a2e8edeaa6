#pragma once
// A small pool of worker threads that splits a range of rows into contiguous bands, one per
// thread (or into stripes taken in turn), for the CPU executor's stages. The calling thread works
// too (band 0), so a pool of N threads starts N - 1 workers; N = 1 runs everything on the caller.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "esframe/base/result.hpp"

namespace esf {

class RowPool {
 public:
  // threads <= 0: one per online core. The workers start with every signal blocked
  // (base/signal_free_thread.hpp). Never throws: when a worker cannot start, the pool runs
  // every band on the caller (threads() is 1) and status() says why.
  explicit RowPool(int threads = 0);
  ~RowPool();
  RowPool(const RowPool&) = delete;
  RowPool& operator=(const RowPool&) = delete;

  int threads() const { return threads_; }
  // Why the workers could not start, or success.
  const Status& status() const { return status_; }
  // What threads <= 0 means: the online cores (at least 1).
  static int defaultThreads();

  // Calls band(begin, end, index) for `index` in [0, threads()) over consecutive, disjoint row
  // ranges that cover [0, rows) (empty bands are skipped), and returns when all have finished.
  // Bands run concurrently: they must write disjoint memory or per-index accumulators.
  using Band = std::function<void(int begin, int end, int index)>;
  void forEachBand(int rows, const Band& band);
  // Calls band(begin, end, index) for stripes of `stripe_rows` rows covering [0, rows), each
  // thread taking the next stripe when it finishes one: for work whose cost differs across the
  // image (a camera's sky against its ground), where equal bands leave one thread waiting on
  // the other. `index` names the calling thread's accumulators as in forEachBand.
  void forEachStripe(int rows, int stripe_rows, const Band& band);
  // The executor's stripe height: a few rows of a frame, many stripes a thread.
  static constexpr int kStripeRows = 16;

 private:
  void workerLoop(int index);
  void stopWorkers();

  int threads_ = 1;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const Band* band_ = nullptr;
  int rows_ = 0;
  uint64_t generation_ = 0;
  int pending_ = 0;
  bool stopping_ = false;
  Status status_;
};

}  // namespace esf
