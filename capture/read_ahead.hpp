#pragma once
// Read-ahead for sources that are not live (Y4M and raw files and pipes): a producer thread reads
// the next frames into a small ring of recycled byte buffers while the caller works on the current
// one, so the wall time a caller waits for a frame is only what the reader is behind.
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "capture/parallel_pread.hpp"
#include "capture/read_bytes.hpp"
#include "esframe/base/result.hpp"
#include "esframe/base/unique_fd.hpp"

namespace esf {

// A stdio stream over a file descriptor whose reads a second thread can cut short: every read(2)
// waits in poll(2) on the fd and on an eventfd, so interrupt() ends a read blocked on a pipe whose
// writer stalls (the read then fails with ECANCELED, and so does every later one). The fd stays in
// blocking mode: stdin's open file description is shared with the parent shell.
// The stream is unbuffered: glibc's cookie streams copy even a large fread through their buffer,
// so frame headers are read through it a byte a read(2), and payloads straight from the fd into
// the caller's memory with readDirect (one copy from the page cache, split over threads for a
// regular file: ParallelPread).
class InterruptibleFile {
 public:
  // Takes `fd`. Fails when the eventfd or the stream cannot be made; errors name `name`.
  static Result<InterruptibleFile> open(UniqueFd fd, const std::string& name);

  FILE* get() const { return file_.get(); }
  // The fd read: its offset is the stream's (unbuffered), for a regular file's size checks.
  int fd() const;
  // Reads `size` bytes into `dst` from the fd, bypassing the stream (which, unbuffered, holds no
  // bytes read ahead); fewer at the end of the stream, or on an error, which sets `failed`.
  size_t readDirect(uint8_t* dst, size_t size, bool& failed) const;
  // readDirect as a reader's ReadBytes; valid while this object lives.
  ReadBytes directReader() const {
    return
        [this](uint8_t* dst, size_t size, bool& failed) { return readDirect(dst, size, failed); };
  }
  // Thread-safe; wakes a read blocked in poll(2) and fails every read after it.
  void interrupt() const;

 private:
  UniqueFile file_;         // its cookie owns the fd and the eventfd
  void* reader_ = nullptr;  // that cookie
  int wake_fd_ = -1;
  // A regular file's payloads: pread(2), in parts at once where they are large.
  std::unique_ptr<ParallelPread> parallel_;
};

class ReadAhead {
 public:
  // Frames read ahead, beside the one the caller holds: 3 buffers of a 1080p 4:2:0 frame are 9 MB,
  // and one frame of slack already hides a read as long as the caller's work on a frame.
  static constexpr size_t kSlots = 3;

  // Fills its buffer with the next frame (resizing it to the frame's size reuses the buffer's
  // memory from the second round on): true = a frame, false = the clean end of the stream; an
  // error ends the stream too. Called on the reader thread only, one call at a time.
  using Producer = std::function<Result<bool>(std::vector<uint8_t>& slot)>;

  // The reader thread starts at the first next(), so a source opened only to be looked at reads
  // nothing ahead. `interrupt` is called once, on the destroying thread, to wake a producer
  // blocked in a read (InterruptibleFile::interrupt); it must make that read return. Errors of
  // its own name `name` (the source).
  ReadAhead(std::string name, Producer produce, std::function<void()> interrupt);
  // Stops the reader thread, interrupting a blocked read, and joins it.
  ~ReadAhead();
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next frame's bytes, valid until the next call or the destructor (the buffer returned
  // before goes back to the reader now); nullptr at the clean end. After the end or an error,
  // every later call returns that end or error again, after the frames read before it. A signal
  // that arrives while it waits (SIGINT, SIGTERM: the CLI's stop) ends the wait with
  // ErrorCode::kTryAgain, as it ended a read(2) before there was a reader thread; the reader
  // thread blocks every signal, so that the waiting thread is the one they reach.
  Result<const std::vector<uint8_t>*> next();

 private:
  void readLoop();

  Status start();

  std::string name_;
  Producer produce_;
  std::function<void()> interrupt_;
  std::vector<uint8_t> slots_[kSlots];
  std::mutex mutex_;
  std::condition_variable changed_;  // the reader waits on it for a free slot or a stop
  UniqueFd frame_ready_;  // an eventfd the reader signals for each frame or the end; the caller
                          // waits in poll(2) on it, which a signal interrupts
  // Guarded by mutex_. Slot order: [held by the caller][ready ...][free ...], from `first_ready_`
  // - held_ on, modulo kSlots; the reader fills slot first_ready_ + ready_ when one is free.
  size_t first_ready_ = 0;
  size_t ready_ = 0;
  size_t held_ = 0;
  bool stop_ = false;
  bool ended_ = false;  // the reader has stopped: clean end, or `end_error_`
  std::optional<Error> end_error_;
  std::thread reader_;  // started by the first next()
};

}  // namespace esf
