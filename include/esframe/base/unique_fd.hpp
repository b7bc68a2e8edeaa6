#pragma once
// Owners of file descriptors and stdio streams, and a type for fds that are only borrowed.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <utility>

namespace esf {

// A non-owning view of a file descriptor: a parameter or member of this type says "used here,
// closed by someone else". Converts implicitly from a plain int and from a UniqueFd, so call
// sites stay short; it never closes anything.
class BorrowedFd {
 public:
  constexpr BorrowedFd() = default;
  constexpr BorrowedFd(int fd) : fd_(fd) {}  // NOLINT(google-explicit-constructor)

  constexpr int get() const { return fd_; }
  constexpr bool valid() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// A move-only owner of a file descriptor (libcamera's UniqueFD).
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept {
    if (this != &o) reset(std::exchange(o.fd_, -1));
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  BorrowedFd borrow() const { return BorrowedFd(fd_); }
  operator BorrowedFd() const { return borrow(); }  // NOLINT(google-explicit-constructor)
  bool valid() const { return fd_ >= 0; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// A move-only owner of a stdio stream (fopen, fmemopen): fclose on destruction.
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using UniqueFile = std::unique_ptr<std::FILE, FileCloser>;

}  // namespace esf
