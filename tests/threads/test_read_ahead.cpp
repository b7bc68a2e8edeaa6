// Read-ahead of Y4M and raw video (capture/read_ahead.hpp): the ring hands frames over in order,
// never refills the buffer the caller holds, recycles its buffers, ends with the reader's end or
// error after the frames before it; file and pipe sources give every frame byte for byte, stop at
// the same frame with the same error as the readers themselves, and are destroyed promptly while
// their reader waits on a pipe whose writer stalls. Label "threads": the tsan preset runs it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <future>
#include <set>
#include <thread>

#include "capture/open_source.hpp"
#include "capture/read_ahead.hpp"
#include "esframe/base/unique_fd.hpp"
#include "tests/capture/capture_test_util.hpp"

namespace esf {
namespace {

using test::bytesOf;
using test::frameBytes;
using test::randomBytes;
using test::readAll;

// Frame i of a producer test: 5 + i % 4 bytes from seed i.
std::vector<uint8_t> ringFrame(size_t i) {
  return randomBytes(5 + i % 4, uint32_t(1000 + i));
}

TEST(ReadAhead, HandsOverEveryFrameInOrderInRecycledBuffersThenTheError) {
  constexpr size_t kFrames = 40;
  std::atomic<const std::vector<uint8_t>*> held{nullptr};
  std::atomic<int> refilled_held{0};
  size_t produced = 0;  // the reader thread's alone
  ReadAhead ring(
      "clip",
      [&](std::vector<uint8_t>& slot) -> Result<bool> {
        if (&slot == held.load()) refilled_held.fetch_add(1);
        if (produced == kFrames) return fail(ErrorCode::kTruncated, "clip: cut at ", "40");
        // Written into the slot's own memory, as the file readers do (a new vector assigned
        // here would take new memory whatever the ring does).
        const std::vector<uint8_t> frame = ringFrame(produced++);
        slot.reserve(8);  // the largest frame: no reallocation from the first round on
        slot.assign(frame.begin(), frame.end());
        return true;
      },
      [] {});
  std::set<const uint8_t*> buffers;
  for (size_t i = 0; i < kFrames; ++i) {
    held.store(nullptr);  // next() gives the held buffer back before it returns the next one
    auto frame = ring.next();
    ASSERT_TRUE(frame.ok()) << frame.error().message;
    ASSERT_NE(*frame, nullptr) << "frame " << i;
    held.store(*frame);
    EXPECT_EQ(**frame, ringFrame(i)) << "frame " << i;
    buffers.insert((*frame)->data());
  }
  for (int again = 0; again < 2; ++again) {
    auto end = ring.next();
    ASSERT_FALSE(end.ok());
    EXPECT_EQ(end.error().code, ErrorCode::kTruncated);
    EXPECT_EQ(end.error().message, "clip: cut at 40");
  }
  EXPECT_EQ(refilled_held.load(), 0) << "the reader wrote into the buffer the caller held";
  // Buffers are reused: resizing a vector within its capacity keeps its memory.
  EXPECT_LE(buffers.size(), ReadAhead::kSlots + 1);
}

TEST(ReadAhead, CleanEndAndDestroyingItBeforeAnyRead) {
  int calls = 0;
  {
    ReadAhead ring(
        "clip",
        [&](std::vector<uint8_t>&) -> Result<bool> {
          ++calls;
          return false;
        },
        [] {});
    auto end = ring.next();
    ASSERT_TRUE(end.ok()) << end.error().message;
    EXPECT_EQ(*end, nullptr);
    auto again = ring.next();
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, nullptr);
  }
  EXPECT_EQ(calls, 1);
  ReadAhead unused(
      "clip", [&](std::vector<uint8_t>&) -> Result<bool> { return ++calls, true; }, [] {});
  EXPECT_EQ(calls, 1) << "the reader starts at the first next()";
}

// A Y4M or raw clip of `count` random frames of `frame_size` bytes, the last one cut to `tail`
// bytes when tail > 0.
using Clip = test::Stream;

Clip makeClip(const std::string& y4m_header, size_t frame_size, int count, size_t tail,
              uint32_t seed) {
  Clip c{bytesOf(y4m_header), {}};
  for (int i = 0; i < count; ++i) {
    auto frame = randomBytes(frame_size, seed + uint32_t(i));
    if (!y4m_header.empty()) {
      const auto fh = bytesOf("FRAME\n");
      c.bytes.insert(c.bytes.end(), fh.begin(), fh.end());
    }
    const bool cut = i == count - 1 && tail > 0;
    c.bytes.insert(c.bytes.end(), frame.begin(), cut ? frame.begin() + long(tail) : frame.end());
    if (!cut) c.frames.push_back(std::move(frame));
  }
  return c;
}

SourceOptions rawOptions(int width, int height) {
  SourceOptions o;
  o.width = width, o.height = height, o.format = PixelFormat::kYU12;
  return o;
}

// 4:2:0 sizes: 257x3 has 771 luma + 2 x 129x2 chroma bytes, 1x1 has 1 + 1 + 1.
constexpr size_t k257x3 = 257 * 3 + 2 * 129 * 2;

TEST(ReadAheadSources, Y4mAndRawFilesGiveEveryFrameThenTheirEnd) {
  const std::string dir = test::makeTempDir();
  struct Case {
    std::string header;
    int width, height;
    size_t frame_size;
    int count;
  };
  for (const Case& c : {Case{"YUV4MPEG2 W257 H3 F30:1 C420jpeg\n", 257, 3, k257x3, 11},
                        Case{"YUV4MPEG2 W1 H1 F30:1 C420\n", 1, 1, 3, 9},
                        Case{"", 257, 3, k257x3, 10}, Case{"", 1, 1, 3, 2}}) {
    const bool y4m = !c.header.empty();
    SCOPED_TRACE(std::to_string(c.width) + (y4m ? " y4m" : " raw"));
    const Clip clip = makeClip(c.header, c.frame_size, c.count, 0, uint32_t(c.width));
    const std::string path = dir + (y4m ? "/clip.y4m" : "/clip.yuv");
    test::writeFile(path, clip.bytes);
    auto s = openSource(path, y4m ? SourceOptions{} : rawOptions(c.width, c.height));
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(readAll(**s, clip), "");
    auto again = (*s)->next();  // the end stays the end
    ASSERT_TRUE(again.ok());
    EXPECT_FALSE(again->has_value());
  }
}

TEST(ReadAheadSources, CutAndCorruptFilesFailAtTheirFrameWithTheReadersMessage) {
  const std::string dir = test::makeTempDir();
  const Clip y4m = makeClip("YUV4MPEG2 W257 H3 F30:1\n", k257x3, 5, 100, 7);
  test::writeFile(dir + "/cut.y4m", y4m.bytes);
  auto s = openSource(dir + "/cut.y4m", {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(readAll(**s, y4m), "truncated: " + dir + "/cut.y4m: truncated Y4M frame 4 (100 of " +
                                   std::to_string(k257x3) + " bytes)");

  const Clip raw = makeClip("", k257x3, 4, 1, 8);
  test::writeFile(dir + "/cut.yuv", raw.bytes);
  s = openSource(dir + "/cut.yuv", rawOptions(257, 3));
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(readAll(**s, raw), "truncated: " + dir + "/cut.yuv: truncated raw frame 3 (1 of " +
                                   std::to_string(k257x3) + " bytes)");

  Clip corrupt = makeClip("YUV4MPEG2 W1 H1\n", 3, 3, 0, 9);
  const auto bad = bytesOf("FRAMX\n");
  corrupt.bytes.insert(corrupt.bytes.end(), bad.begin(), bad.end());
  test::writeFile(dir + "/corrupt.y4m", corrupt.bytes);
  s = openSource(dir + "/corrupt.y4m", {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(readAll(**s, corrupt),
            "corrupt-data: " + dir + "/corrupt.y4m: bad Y4M frame header at frame 3");
}

// A pipe(2) opened by its /proc/self/fd path (a named pipe to openSource); `writer` gets the write
// end.
struct Pipe {
  UniqueFd read_end, write_end;
  Pipe() {
    ::signal(SIGPIPE, SIG_IGN);
    int fds[2];
    EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);
    read_end.reset(fds[0]), write_end.reset(fds[1]);
  }
  std::string path() const { return "/proc/self/fd/" + std::to_string(read_end.get()); }
};

bool writeAll(int fd, const uint8_t* data, size_t size) {
  for (size_t at = 0; at < size;) {
    const ssize_t n = ::write(fd, data + at, std::min<size_t>(size - at, 4093));
    if (n <= 0) return false;
    at += size_t(n);
  }
  return true;
}

TEST(ReadAheadSources, PipesGiveEveryFrameAndTheCutOne) {
  struct Case {
    std::string header;
    size_t tail;
  };
  for (const Case& c : {Case{"YUV4MPEG2 W257 H3 F30:1\n", 0}, Case{"", 0},
                        Case{"YUV4MPEG2 W257 H3 F30:1\n", 5}, Case{"", 600}}) {
    const bool y4m = !c.header.empty();
    SCOPED_TRACE((y4m ? "y4m, tail " : "raw, tail ") + std::to_string(c.tail));
    const Clip clip = makeClip(c.header, k257x3, 12, c.tail, 20);
    Pipe pipe;
    std::thread writer([&clip, fd = std::move(pipe.write_end)] {
      writeAll(fd.get(), clip.bytes.data(), clip.bytes.size());
    });
    auto s = openSource(pipe.path(), y4m ? SourceOptions{} : rawOptions(257, 3));
    if (!s.ok()) {
      ADD_FAILURE() << s.error().message;
      pipe.read_end.reset();  // the writer's write fails, and it ends
      writer.join();
      continue;
    }
    const std::string end = readAll(**s, clip);
    if (c.tail == 0)
      EXPECT_EQ(end, "");
    else
      EXPECT_EQ(end, "truncated: " + pipe.path() + ": truncated " + (y4m ? "Y4M" : "raw") +
                         " frame 11 (" + std::to_string(c.tail) + " of " + std::to_string(k257x3) +
                         " bytes)");
    s->reset();
    writer.join();
  }
}

// The writer sends `sent` bytes and then stalls with the pipe open: the reader thread waits in
// its read. Destroying the source must return; it is given a minute (a hang, not a timing).
void expectPromptDestructionOnStall(const std::string& header, const SourceOptions& options,
                                    size_t sent) {
  const Clip clip = makeClip(header, k257x3, 8, 0, 30);
  Pipe pipe;
  ASSERT_TRUE(writeAll(pipe.write_end.get(), clip.bytes.data(), sent));
  auto s = openSource(pipe.path(), options);
  ASSERT_TRUE(s.ok()) << s.error().message;
  auto first = (*s)->next();
  ASSERT_TRUE(first.ok() && first->has_value());
  EXPECT_EQ(frameBytes(**first), clip.frames[0]);
  auto destroyed = std::async(std::launch::async, [&s] { s->reset(); });
  const bool prompt = destroyed.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  EXPECT_TRUE(prompt) << "destroying the source hangs while its pipe's writer stalls";
  pipe.write_end.reset();  // on failure, the reader sees the end and the test can finish
  destroyed.wait();
}

TEST(ReadAheadSources, DestroyingASourceWhoseWriterStallsMidFrameReturns) {
  const std::string header = "YUV4MPEG2 W257 H3 F30:1\n";
  expectPromptDestructionOnStall(header, {}, header.size() + 6 + k257x3 + 6 + 100);
  expectPromptDestructionOnStall("", rawOptions(257, 3), k257x3 + 1);
}

TEST(ReadAheadSources, DestroyingASourceWhoseWriterStallsBetweenFramesReturns) {
  const std::string header = "YUV4MPEG2 W257 H3 F30:1\n";
  expectPromptDestructionOnStall(header, {}, header.size() + 6 + k257x3);
}

TEST(ReadAheadSources, DestroyingASourceWhoseRingIsFullReturns) {
  // Every frame written: the reader fills the ring and waits for a free buffer.
  const std::string header = "YUV4MPEG2 W257 H3 F30:1\n";
  const Clip clip = makeClip(header, k257x3, 8, 0, 30);
  expectPromptDestructionOnStall(header, {}, clip.bytes.size());
}

void onSignal(int) {}

// A signal reaching a thread that waits for a frame ends the wait (the CLI's SIGINT/SIGTERM stop
// relies on it), as it ended a read(2) from the pipe before there was a reader thread.
TEST(ReadAheadSources, ASignalEndsTheWaitForAFrameFromAStalledPipe) {
  struct sigaction sa = {}, previous = {};
  sa.sa_handler = onSignal;  // no SA_RESTART, as the CLI's handler
  ASSERT_EQ(::sigaction(SIGUSR1, &sa, &previous), 0);
  const std::string header = "YUV4MPEG2 W257 H3 F30:1\n";
  const Clip clip = makeClip(header, k257x3, 2, 0, 40);
  Pipe pipe;
  ASSERT_TRUE(writeAll(pipe.write_end.get(), clip.bytes.data(), header.size() + 6 + k257x3));
  auto s = openSource(pipe.path(), {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  auto first = (*s)->next();
  ASSERT_TRUE(first.ok() && first->has_value());
  std::atomic<bool> returned{false};
  std::thread waiter([&] {
    auto second = (*s)->next();  // the writer stalls: it waits until the signal
    EXPECT_FALSE(second.ok());
    if (!second.ok()) {
      EXPECT_EQ(second.error().code, ErrorCode::kTryAgain);
      EXPECT_EQ(second.error().message, pipe.path() + ": interrupted while waiting for a frame");
    }
    returned = true;
  });
  // Signalled until it returns (a signal sent before it waits is lost); a minute at most.
  for (int i = 0; i < 6000 && !returned; ++i) {
    ::pthread_kill(waiter.native_handle(), SIGUSR1);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(returned.load()) << "a signal does not end the wait for a frame";
  pipe.write_end.reset();  // on failure, the reader sees the end and the waiter returns
  waiter.join();
  ::sigaction(SIGUSR1, &previous, nullptr);
}

}  // namespace
}  // namespace esf
