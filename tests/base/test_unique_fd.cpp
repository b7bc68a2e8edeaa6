// UniqueFd closes exactly once, BorrowedFd never; UniqueFile closes its stream. The oracle is
// the kernel: fcntl(F_GETFD) on the fd number after the owner is gone.
#include "esframe/base/unique_fd.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <cerrno>

namespace esf {
namespace {

bool isOpen(int fd) {
  return ::fcntl(fd, F_GETFD) != -1 || errno != EBADF;
}

int takesBorrowed(BorrowedFd fd) {
  return fd.get();
}

TEST(UniqueFd, ClosesOnDestructionAndMoves) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[1]);
  {
    UniqueFd a(fds[0]);
    UniqueFd b(std::move(a));
    EXPECT_FALSE(a.valid());
    EXPECT_EQ(b.get(), fds[0]);
    EXPECT_EQ(takesBorrowed(b), fds[0]);
    {
      BorrowedFd view = b.borrow();
      EXPECT_EQ(view.get(), fds[0]);
    }
    EXPECT_TRUE(isOpen(fds[0]));  // the borrowed view closed nothing
  }
  EXPECT_FALSE(isOpen(fds[0]));
}

TEST(UniqueFd, ReleaseGivesUpOwnership) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  int raw = -1;
  {
    UniqueFd a(fds[0]);
    raw = a.release();
  }
  EXPECT_TRUE(isOpen(raw));
  ::close(raw);
  ::close(fds[1]);
  EXPECT_FALSE(BorrowedFd().valid());
  EXPECT_TRUE(BorrowedFd(0).valid());
}

TEST(UniqueFile, ClosesTheStream) {
  int fd = -1;
  {
    UniqueFile f(std::tmpfile());
    ASSERT_TRUE(f);
    fd = ::fileno(f.get());
    EXPECT_TRUE(isOpen(fd));
  }
  EXPECT_FALSE(isOpen(fd));
}

}  // namespace
}  // namespace esf
