// ParallelPread: a range of a regular file read in parts by several threads equals the file's
// bytes (the oracle: the bytes written), stops at the end of the file, leaves the rest of the
// caller's buffer alone, and reports an error. Then the sources that use it: a regular file's
// large Y4M and raw frames, read through it, equal the frames written, with the headers around
// them still read in step.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "capture/open_source.hpp"
#include "capture/parallel_pread.hpp"
#include "esframe/base/unique_fd.hpp"
#include "tests/capture/capture_test_util.hpp"

namespace esf {
namespace {

using test::bytesOf;
using test::frameBytes;
using test::randomBytes;

constexpr uint8_t kPoison = 0xa5;

struct Range {
  size_t offset, size;
};

class ParallelPreadReads : public ::testing::TestWithParam<int> {};

TEST_P(ParallelPreadReads, EveryRangeEqualsTheFile) {
  // Parts of an odd size (not whole pages) over a file of an odd size.
  const size_t min_part = 3 * 4096 + 5;
  const std::vector<uint8_t> file = randomBytes(9 * min_part + 123, 7);
  const std::string path = test::makeTempDir() + "/data";
  test::writeFile(path, file);
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(fd.valid());
  ParallelPread reader(GetParam(), min_part);
  const size_t n = file.size();
  for (Range r : {Range{0, n}, Range{1, n - 1}, Range{5000, 2 * min_part},
                  Range{0, 2 * min_part - 1}, Range{777, 4 * min_part + 3},
                  Range{n - 10, 3 * min_part}, Range{n, 10}, Range{0, 0}, Range{n / 2, n}}) {
    std::vector<uint8_t> dst(r.size + 16, kPoison);
    bool failed = false;
    const size_t got = reader.read(fd.get(), off_t(r.offset), dst.data(), r.size, failed);
    const size_t expect = std::min(r.size, n - std::min(r.offset, n));
    SCOPED_TRACE("offset " + std::to_string(r.offset) + " size " + std::to_string(r.size));
    EXPECT_FALSE(failed);
    ASSERT_EQ(got, expect);
    EXPECT_TRUE(
        std::equal(dst.begin(), dst.begin() + ptrdiff_t(got), file.begin() + ptrdiff_t(r.offset)));
    for (size_t i = got; i < dst.size(); ++i) ASSERT_EQ(dst[i], kPoison) << "byte " << i;
  }
}

TEST_P(ParallelPreadReads, AnUnreadableFdFails) {
  const std::string path = test::makeTempDir() + "/data";
  test::writeFile(path, randomBytes(1 << 16, 3));
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));  // pread: EBADF
  ASSERT_TRUE(fd.valid());
  ParallelPread reader(GetParam(), 4096);
  std::vector<uint8_t> dst(1 << 16, kPoison);
  bool failed = false;
  EXPECT_EQ(reader.read(fd.get(), 0, dst.data(), dst.size(), failed), 0u);
  EXPECT_TRUE(failed);
  EXPECT_EQ(errno, EBADF);
}

INSTANTIATE_TEST_SUITE_P(Helpers, ParallelPreadReads, ::testing::Values(0, 1, 3, 8));

// A file past 2 GiB (sparse: no disk used), its last bytes written: offsets beyond 32 bits reach
// them (on a 32-bit target only with 64-bit file offsets, which the build sets). Removed when
// the test ends.
struct BigSparseFile {
  std::string path = test::makeTempDir() + "/big";
  BigSparseFile(const std::vector<uint8_t>& tail, uint64_t tail_at) {
    UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
    EXPECT_TRUE(fd.valid());
    EXPECT_EQ(::pwrite(fd.get(), tail.data(), tail.size(), off_t(tail_at)), ssize_t(tail.size()))
        << std::strerror(errno);
  }
  ~BigSparseFile() { ::unlink(path.c_str()); }
};

TEST(ParallelPreadLargeFiles, OffsetsPast2GiBReachTheirBytes) {
  const uint64_t at = (uint64_t(1) << 31) + 4096 * 3 + 11;
  const std::vector<uint8_t> tail = randomBytes(3 * 8192 + 5, 9);
  const BigSparseFile file(tail, at);
  UniqueFd fd(::open(file.path.c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(fd.valid());
  ParallelPread reader(2, 8192);
  std::vector<uint8_t> dst(tail.size() + 100, kPoison);
  bool failed = false;
  // From 100 bytes before the tail (sparse zeros) to past the end of the file.
  const size_t got = reader.read(fd.get(), off_t(at - 100), dst.data(), dst.size(), failed);
  EXPECT_FALSE(failed) << std::strerror(errno);
  ASSERT_EQ(got, tail.size() + 100);
  for (size_t i = 0; i < 100; ++i) ASSERT_EQ(dst[i], 0) << "byte " << i;
  EXPECT_TRUE(std::equal(tail.begin(), tail.end(), dst.begin() + 100));
}

TEST(ParallelPreadLargeFiles, ARawFilePast2GiBOpensAndReads) {
  // 16x16 RGBA frames; the file's last frame is random, everything before it zeros.
  const size_t frame = 16 * 16 * 4;
  const uint64_t at = ((uint64_t(1) << 31) / frame + 1) * frame;
  const std::vector<uint8_t> last = randomBytes(frame, 10);
  const BigSparseFile file(last, at);
  SourceOptions o;
  o.width = 16;
  o.height = 16;
  o.format = PixelFormat::kRGBA32;
  auto s = openSource(file.path, o);
  ASSERT_TRUE(s.ok()) << s.error().message;
  auto f = (*s)->next();
  ASSERT_TRUE(f.ok() && f->has_value()) << (f.ok() ? "end" : f.error().message);
  EXPECT_EQ(frameBytes(**f), std::vector<uint8_t>(frame, 0));
}

// Frames big enough to be read in parts (InterruptibleFile reads 2 MiB and more through
// ParallelPread): 3 frames of 1282x1100 4:2:0, 2.1 MB each, with frame headers of several lengths
// between them, so a payload read that left the file offset anywhere but at its end would break
// the next header.
TEST(ParallelPreadSources, LargeY4mFramesEqualTheFile) {
  const int w = 1282, h = 1100;
  const size_t frame_size = size_t(w) * h + 2 * size_t(w / 2) * (h / 2);
  std::vector<uint8_t> file = bytesOf("YUV4MPEG2 W1282 H1100 F30:1 Ip A1:1 C420jpeg\n");
  test::Stream expect;
  for (int i = 0; i < 3; ++i) {
    expect.frames.push_back(randomBytes(frame_size, uint32_t(100 + i)));
    const auto fh = bytesOf(i == 1 ? "FRAME Ixyz XA=b\n" : "FRAME\n");
    file.insert(file.end(), fh.begin(), fh.end());
    file.insert(file.end(), expect.frames.back().begin(), expect.frames.back().end());
  }
  const std::string path = test::makeTempDir() + "/clip.y4m";
  test::writeFile(path, file);
  auto s = openSource(path, {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(test::readAll(**s, expect), "");
}

TEST(ParallelPreadSources, LargeRawFramesThenAPartialOneEqualTheFile) {
  const int w = 1024, h = 700;  // RGBA: 2.8 MB a frame
  const size_t frame_size = size_t(w) * h * 4;
  test::Stream expect;
  std::vector<uint8_t> file;
  for (int i = 0; i < 2; ++i) {
    expect.frames.push_back(randomBytes(frame_size, uint32_t(200 + i)));
    file.insert(file.end(), expect.frames.back().begin(), expect.frames.back().end());
  }
  const std::vector<uint8_t> tail = randomBytes(frame_size - 4097, 300);
  file.insert(file.end(), tail.begin(), tail.end());
  const std::string path = test::makeTempDir() + "/clip.rgba";
  test::writeFile(path, file);
  SourceOptions o;
  o.width = w;
  o.height = h;
  o.format = PixelFormat::kRGBA32;
  auto s = openSource(path, o);
  ASSERT_TRUE(s.ok()) << s.error().message;
  const std::string end = test::readAll(**s, expect);
  EXPECT_NE(end.find("truncated"), std::string::npos) << end;
  EXPECT_NE(end.find(path), std::string::npos) << end;
}

}  // namespace
}  // namespace esf
