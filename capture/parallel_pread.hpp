#pragma once
// Reads a large range of a regular file with several threads at once, each pread(2)ing its own
// part: a frame's copy out of the page cache is memory-bound per thread, and one thread reading
// 3 MB 1080p 4:2:0 frames took longer per frame than the GPU's work on it, so it bound a whole
// Y4M run (bench/results/h200-run.md).
#include <sys/types.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace esf {

class ParallelPread {
 public:
  // Parts smaller than this are not worth a thread's wake-up: a smaller read is one pread loop.
  static constexpr size_t kDefaultMinPart = size_t(1) << 20;

  // `helpers`: threads beside the caller (0: every read on the caller), started at the first
  // read that needs them; `min_part`: the smallest part a thread is given.
  explicit ParallelPread(int helpers, size_t min_part = kDefaultMinPart);
  // Helpers for this machine: one per core beyond the caller's, at most 3.
  static int defaultHelpers();
  // Joins the helpers (none is reading: read() returns only when every part is done).
  ~ParallelPread();
  ParallelPread(const ParallelPread&) = delete;
  ParallelPread& operator=(const ParallelPread&) = delete;

  // Reads `size` bytes of `fd` from `offset` into `dst`. Returns how many bytes from `offset` on
  // were read without a gap: fewer only at the end of the file or on an error, which sets
  // `failed` (errno as pread left it). One caller at a time.
  size_t read(int fd, off_t offset, uint8_t* dst, size_t size, bool& failed);

 private:
  struct Part {
    uint8_t* dst = nullptr;
    off_t offset = 0;
    size_t size = 0;
    size_t got = 0;
    int error = 0;
  };
  static void readPart(int fd, Part& part);
  void helperLoop(size_t index);
  bool startHelpers();

  const int helpers_;
  const size_t min_part_;
  std::vector<std::thread> threads_;
  bool helpers_failed_ = false;  // no thread could be started: every read on the caller
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  // Guarded by mutex_: the parts of the read in flight ([0] is the caller's), whose turn it is
  // (each helper takes part index + 1 once per generation), and how many are still reading.
  std::vector<Part> parts_;
  int fd_ = -1;
  uint64_t generation_ = 0;
  size_t pending_ = 0;
  bool stopping_ = false;
};

}  // namespace esf
