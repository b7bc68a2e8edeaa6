// The PNG output's graph size against the frame limit (esframe/base/sizes.hpp): refused when the
// output is made, before its folder is, naming the output. CI also runs the HostileSize suite
// under qemu-arm.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "core/outputs/png_output.hpp"

namespace esf {
namespace {

TEST(HostileSize, PngOutputGraphOverTheLimit) {
  char tmpl[] = "/tmp/esframe-png-sizes-XXXXXX";
  const std::filesystem::path root = mkdtemp(tmpl);
  PngOutputOptions o;
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

}  // namespace
}  // namespace esf
