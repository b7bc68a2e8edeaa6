// Streams: standard input ("-") and named pipes, Y4M and raw, read once (a pipe cannot seek).
// A writer thread feeds the pipe in small pieces, so reads see short counts; a stream cut inside
// a frame gives every whole frame, then ErrorCode::kTruncated naming the stream.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <random>
#include <thread>

#include "capture/open_source.hpp"
#include "esframe/base/unique_fd.hpp"
#include "tests/capture/capture_test_util.hpp"

namespace esf {
namespace {

using test::frameBytes;
using test::randomBytes;
using test::readAll;
using test::Stream;

// Writes `bytes` to `fd` 7 bytes at a time, then closes it.
std::thread feed(UniqueFd fd, std::vector<uint8_t> bytes) {
  return std::thread([fd = std::move(fd), bytes = std::move(bytes)] {
    for (size_t at = 0; at < bytes.size(); at += 7) {
      const size_t n = std::min<size_t>(7, bytes.size() - at);
      if (::write(fd.get(), bytes.data() + at, n) != ssize_t(n)) return;
    }
  });
}

// A named pipe with a writer thread that opens it and writes `bytes`. A reader that stops early
// makes the writer's write fail with EPIPE (SIGPIPE is ignored here).
struct Fifo {
  std::string path;
  std::thread writer;
  explicit Fifo(const std::vector<uint8_t>& bytes) : path(test::makeTempDir() + "/pipe") {
    ::signal(SIGPIPE, SIG_IGN);
    EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
    writer = std::thread([p = path, bytes] {
      UniqueFd fd(::open(p.c_str(), O_WRONLY));  // blocks until the reader opens
      feed(std::move(fd), bytes).join();
    });
  }
  ~Fifo() {
    // A writer still waiting for a reader (the test failed before opening the pipe) gets one.
    UniqueFd unblock(::open(path.c_str(), O_RDONLY | O_NONBLOCK));
    writer.join();
  }
};

// A 5x3 4:2:0 Y4M stream of `count` frames of 27 bytes, then `tail` bytes of a cut frame.
Stream y4mStream(int count, size_t tail) {
  Stream s{test::bytesOf("YUV4MPEG2 W5 H3 F30:1 C420jpeg\n"), {}};
  for (int i = 0; i <= count; ++i) {
    const std::vector<uint8_t> frame = randomBytes(27, uint32_t(i));
    const bool whole = i < count;
    if (!whole && tail == 0) break;
    const auto header = test::bytesOf("FRAME\n");
    s.bytes.insert(s.bytes.end(), header.begin(), header.end());
    s.bytes.insert(s.bytes.end(), frame.begin(), whole ? frame.end() : frame.begin() + long(tail));
    if (whole) s.frames.push_back(frame);
  }
  return s;
}

TEST(StreamSources, Y4mFromANamedPipe) {
  const Stream stream = y4mStream(3, 0);
  Fifo fifo(stream.bytes);
  auto s = openSource(fifo.path, {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ((*s)->format(), PixelFormat::kYU12);
  EXPECT_EQ((*s)->width(), 5);
  EXPECT_EQ(readAll(**s, stream), "");
}

TEST(StreamSources, TruncatedY4mDeliversTheWholeFramesThenFails) {
  const Stream stream = y4mStream(2, 11);
  Fifo fifo(stream.bytes);
  auto s = openSource(fifo.path, {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  const std::string error = readAll(**s, stream);
  EXPECT_EQ(error, "truncated: " + fifo.path + ": truncated Y4M frame 2 (11 of 27 bytes)");
}

// Raw frames smaller than the Y4M magic: the bytes read to look for it span three frames.
TEST(StreamSources, RawFramesFromANamedPipeSmallerThanTheMagic) {
  Stream stream;
  for (int i = 0; i < 5; ++i) {
    stream.frames.push_back(randomBytes(4, uint32_t(10 + i)));
    stream.bytes.insert(stream.bytes.end(), stream.frames.back().begin(),
                        stream.frames.back().end());
  }
  Fifo fifo(stream.bytes);
  SourceOptions o;
  o.width = 2, o.height = 2, o.format = PixelFormat::kGREY;
  auto s = openSource(fifo.path, o);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(readAll(**s, stream), "");
}

TEST(StreamSources, TruncatedRawAndUnsizedRawFail) {
  Stream stream;
  stream.frames.push_back(randomBytes(18, 3));
  stream.bytes = stream.frames[0];
  stream.bytes.resize(18 + 5, 0x42);
  {
    Fifo fifo(stream.bytes);
    SourceOptions o;
    o.width = 3, o.height = 2, o.format = PixelFormat::kRGB24;
    auto s = openSource(fifo.path, o);
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(readAll(**s, stream),
              "truncated: " + fifo.path + ": truncated raw frame 1 (5 of 18 bytes)");
  }
  Fifo fifo(stream.bytes);
  auto s = openSource(fifo.path, {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message,
            fifo.path + ": not Y4M, and raw frames need a frame size and a pixel format");
}

// "-" reads the process's standard input (here a pipe put on fd 0 for the test) and leaves fd 0
// open when the source goes.
TEST(StreamSources, StandardInput) {
  const Stream stream = y4mStream(2, 0);
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  UniqueFd read_end(ends[0]), write_end(ends[1]);
  UniqueFd saved_stdin(::dup(STDIN_FILENO));
  ASSERT_EQ(::dup2(read_end.get(), STDIN_FILENO), STDIN_FILENO);
  read_end.reset();
  std::thread writer = feed(std::move(write_end), stream.bytes);
  {
    auto s = openSource("-", {});
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ((*s)->name(), "stdin");
    EXPECT_EQ(readAll(**s, stream), "");
  }
  writer.join();
  EXPECT_EQ(::fcntl(STDIN_FILENO, F_GETFD), 0) << "fd 0 still open";
  ASSERT_EQ(::dup2(saved_stdin.get(), STDIN_FILENO), STDIN_FILENO);
}

}  // namespace
}  // namespace esf
