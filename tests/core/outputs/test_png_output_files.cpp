// The PNG output's files: the graph size against the frame limit (esframe/base/sizes.hpp),
// refused when the output is made, before its folder is, naming the output (CI also runs the
// HostileSize suite under qemu-arm); which existing files a frame may replace.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/outputs/png_output.hpp"

namespace esf {
namespace {

TEST(HostileSize, PngOutputGraphOverTheLimit) {
  char tmpl[] = "/tmp/esframe-png-sizes-XXXXXX";
  const std::filesystem::path root = mkdtemp(tmpl);
  PngSinkOptions o;
  o.dir = (root / "graphs").string();
  o.graph_width = 1000000, o.graph_height = 1000000;
  Result<std::unique_ptr<PngOutput>> huge = PngOutput::create(o);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(huge.error().message,
            "PNG output graph: frame size 1000000x1000000 is outside 1x1..16384x16384");
  EXPECT_FALSE(std::filesystem::exists(o.dir));
  o.graph_width = 16384, o.graph_height = 1;
  Result<std::unique_ptr<PngOutput>> at = PngOutput::create(o);
  EXPECT_TRUE(at.ok()) << at.error().message;
  std::filesystem::remove_all(root);
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A driver may repeat a sequence number: the output replaces the files it wrote for the frame
// before, and refuses a file it did not write (here one of an earlier number, met again later).
TEST(PngOutputFiles, RepeatedSequenceReplacesOnlyTheFilesOfTheFrameBefore) {
  char tmpl[] = "/tmp/esframe-png-files-XXXXXX";
  const std::filesystem::path root = mkdtemp(tmpl);
  PngSinkOptions o;
  o.dir = root.string(), o.graph_width = 16, o.graph_height = 8;
  Result<std::unique_ptr<PngOutput>> out = PngOutput::create(o);
  ASSERT_TRUE(out.ok()) << out.error().message;
  FrameResult f;
  f.hist.bins = 2, f.hist.channels = "l", f.hist.counts = {1, 0};
  f.scale = {1.0f};
  RgbaImage first(2, 1), second(3, 1);
  f.image = &first;
  ASSERT_TRUE((*out)->write(f).ok());
  const std::filesystem::path frame0 = root / "frame-00000000.png";
  const std::string first_png = readFile(frame0);
  f.image = &second;
  Status again = (*out)->write(f);
  ASSERT_TRUE(again.ok()) << (again.ok() ? "" : again.error().message);
  EXPECT_NE(readFile(frame0), first_png);
  f.seq = 1;
  ASSERT_TRUE((*out)->write(f).ok());
  f.seq = 0;
  Status back = (*out)->write(f);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().message.find("graph-00000000.png"), std::string::npos)
      << back.error().message;
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace esf
