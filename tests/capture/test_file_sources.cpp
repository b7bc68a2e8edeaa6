// Y4M and headerless raw video: valid, truncated and corrupt input; image sequences.
#include <gtest/gtest.h>

#include <random>

#include "base/pixel_format.hpp"
#include "capture/open_source.hpp"
#include "tests/capture/capture_test_util.hpp"

namespace esf {
namespace {

using test::bytesOf;

using test::frameBytes;
using test::randomBytes;

struct Y4mCase {
  const char* chroma;  // "" for the default (420jpeg)
  PixelFormat format;
  size_t frame_size;  // for 5x3
};

class Y4m : public ::testing::TestWithParam<Y4mCase> {};

TEST_P(Y4m, ReadsEveryFrameThenEnds) {
  const auto& c = GetParam();
  const std::string path = test::makeTempDir() + "/clip.y4m";
  std::string header = "YUV4MPEG2 W5 H3 F25:1 Ip A1:1";
  if (*c.chroma) header += std::string(" C") + c.chroma;
  header += " XYSCSS=420JPEG\n";
  std::vector<uint8_t> file = bytesOf(header);
  std::vector<std::vector<uint8_t>> frames;
  for (int i = 0; i < 3; ++i) {
    frames.push_back(randomBytes(c.frame_size, uint32_t(i)));
    const auto fh = bytesOf(i == 1 ? "FRAME Ixyz\n" : "FRAME\n");
    file.insert(file.end(), fh.begin(), fh.end());
    file.insert(file.end(), frames.back().begin(), frames.back().end());
  }
  test::writeFile(path, file);
  auto s = openSource(path, {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ((*s)->format(), c.format);
  for (int i = 0; i < 3; ++i) {
    auto f = (*s)->next();
    ASSERT_TRUE(f.ok() && f->has_value()) << (f.ok() ? "end" : f.error().message);
    EXPECT_EQ(frameBytes(**f), frames[i]);
    EXPECT_EQ((**f).width, 5);
    EXPECT_EQ((**f).timestamp_ns, uint64_t(i) * 40000000ull);
    EXPECT_FALSE((**f).colorimetry.full_range);
  }
  auto end = (*s)->next();
  ASSERT_TRUE(end.ok());
  EXPECT_FALSE(end->has_value());
}

INSTANTIATE_TEST_SUITE_P(Chroma, Y4m,
                         ::testing::Values(Y4mCase{"", PixelFormat::kYU12, 15 + 6 + 6},
                                           Y4mCase{"420jpeg", PixelFormat::kYU12, 27},
                                           Y4mCase{"420paldv", PixelFormat::kYU12, 27},
                                           Y4mCase{"420mpeg2", PixelFormat::kYU12, 27},
                                           Y4mCase{"422", PixelFormat::kYUV422P, 15 + 9 + 9},
                                           Y4mCase{"444", PixelFormat::kYUV444P, 45},
                                           Y4mCase{"mono", PixelFormat::kGREY, 15}));

// Opens `content` as a Y4M file and reads to the end; returns the first error.
std::string y4mError(const std::string& content) {
  const std::string path = test::makeTempDir() + "/bad.y4m";
  test::writeFile(path, bytesOf(content));
  auto s = openSource(path, {});
  if (!s) return s.error().message;
  for (int i = 0; i < 100; ++i) {
    auto f = (*s)->next();
    if (!f) return f.error().message;
    if (!f->has_value()) return "";
  }
  return "";
}

TEST(Y4mErrors, TruncatedAndCorruptInputNameTheFile) {
  const std::string frame(27, 'x');
  const std::string ok = "YUV4MPEG2 W5 H3 F30:1\n";
  EXPECT_EQ(y4mError(ok + "FRAME\n" + frame), "");
  const struct {
    std::string content, expect;
  } cases[] = {
      // A file shorter than one frame is refused at open, before a frame is allocated.
      {ok + "FRAME\n" + frame.substr(0, 10),
       "truncated Y4M: its header declares 5x3 YU12 frames of 27 bytes, and the file holds 16 "
       "bytes after the header"},
      {ok + "FRAME\n" + frame + "FRAME\n", "truncated Y4M frame 1 (0 of 27"},
      {ok + "FRAME\n" + frame + "FRAM", "truncated Y4M frame header"},
      {ok + "FRAMX\n" + frame, "bad Y4M frame header at frame 0"},
      {ok + "FRAME\n" + frame + "GARBAGE\n", "bad Y4M frame header at frame 1"},
      {"YUV4MPEG2 W5 H3", "truncated Y4M header"},
      {"YUV4MPEG2 H3 F30:1\n", "lacks W or H"},
      {"YUV4MPEG2 W5 H3 F30:0\n", "bad Y4M header field 'F30:0'"},
      {"YUV4MPEG2 W5x H3\n", "bad Y4M header field 'W5x'"},
      {"YUV4MPEG2 W5 H3 C411\n", "unsupported Y4M chroma 'C411'"},
      {"YUV4MPEG2 W1234567890 H3\n", "bad Y4M header field 'W1234567890'"},
      {"YUV4MPEG2 W20000 H3\n", "frame size 20000x3 is outside 1x1..16384x16384"},
      {"YUV4MPEG2 W5 H3 Q1\n", "bad Y4M header field 'Q1'"},
      {"YUV4MPEG2 W5 H3 " + std::string(5000, 'X') + "\n", "too long"},
  };
  for (const auto& c : cases) {
    const std::string err = y4mError(c.content);
    EXPECT_NE(err.find(c.expect), std::string::npos) << "got: " << err;
    EXPECT_NE(err.find("bad.y4m"), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << "one line: " << err;
  }
}

TEST(Y4mHeader, FullRangeExtension) {
  const std::string path = test::makeTempDir() + "/full.y4m";
  test::writeFile(path, bytesOf("YUV4MPEG2 W2 H2 XCOLORRANGE=FULL\nFRAME\n123456"));
  auto s = openSource(path, {});
  ASSERT_TRUE(s.ok());
  auto f = (*s)->next();
  ASSERT_TRUE(f.ok() && f->has_value());
  EXPECT_TRUE((**f).colorimetry.full_range);
}

TEST(Raw, FramesOfTheGivenSizeAndFormat) {
  const std::string path = test::makeTempDir() + "/video.yuv";
  // 3x3 NV12: Y 9 bytes + interleaved chroma 2x2 samples * 2 bytes = 8 bytes -> 17 bytes.
  const auto two = randomBytes(34, 6);
  test::writeFile(path, two);
  SourceOptions o;
  o.width = 3, o.height = 3, o.format = PixelFormat::kNV12, o.fps = 10;
  auto s = openSource(path, o);
  ASSERT_TRUE(s.ok()) << s.error().message;
  for (int i = 0; i < 2; ++i) {
    auto f = (*s)->next();
    ASSERT_TRUE(f.ok() && f->has_value());
    EXPECT_EQ(frameBytes(**f),
              std::vector<uint8_t>(two.begin() + i * 17, two.begin() + i * 17 + 17));
    EXPECT_EQ((**f).timestamp_ns, uint64_t(i) * 100000000ull);
  }
  EXPECT_FALSE((*s)->next()->has_value());
}

TEST(Raw, PartialLastFrameAndMissingSizeAreErrors) {
  const std::string path = test::makeTempDir() + "/video.rgb";
  test::writeFile(path, randomBytes(3 * 2 * 3 + 5, 1));  // one 3x2 RGB24 frame + 5 bytes
  SourceOptions o;
  o.width = 3, o.height = 2, o.format = PixelFormat::kRGB24;
  auto s = openSource(path, o);
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE((*s)->next().ok());
  auto bad = (*s)->next();
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("video.rgb: truncated raw frame 1 (5 of 18 bytes)"),
            std::string::npos)
      << bad.error().message;
  auto unsized = openSource(path, {});
  ASSERT_FALSE(unsized.ok());
  EXPECT_NE(unsized.error().message.find("frame size"), std::string::npos)
      << unsized.error().message;
  o.format = PixelFormat::kMJPEG;
  EXPECT_FALSE(openSource(path, o).ok());
  o.format = PixelFormat::kUYVY, o.width = 3;
  EXPECT_FALSE(openSource(path, o).ok());
}

}  // namespace
}  // namespace esf
