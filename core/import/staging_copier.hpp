#pragma once
// One worker thread that runs FrameImporter::stage()'s plane copies into the mapped upload
// buffers, so the thread that stages frame N+1 goes on to collect frame N while they run (a
// 1080p 4:2:0 frame is a 3 MB memcpy, a large part of the run loop's time per frame on a fast
// GPU: bench/results/h200-run.md).
// The caller maps the buffers before start() and unmaps them only after wait().
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace esf {

class StagingCopier {
 public:
  // `rows` rows of `row_bytes` each, `src_stride` apart in the source, packed in the destination.
  struct Copy {
    uint8_t* dst = nullptr;
    const uint8_t* src = nullptr;
    size_t row_bytes = 0, src_stride = 0;
    int rows = 0;
  };

  StagingCopier() = default;
  // Waits for the copies in flight, then stops the thread.
  ~StagingCopier();
  StagingCopier(const StagingCopier&) = delete;
  StagingCopier& operator=(const StagingCopier&) = delete;

  // Starts `copies` on the worker (started at the first call), after the ones before have
  // finished; where no thread can be started, runs them on the caller.
  void start(std::vector<Copy> copies);
  // Returns when every copy started has finished; at once when none is in flight.
  void wait();
  // Runs `copies` on the calling thread.
  static void run(const std::vector<Copy>& copies);

 private:
  void workerLoop();

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<Copy> copies_;
  bool busy_ = false, stopping_ = false;
  std::thread worker_;
};

}  // namespace esf
