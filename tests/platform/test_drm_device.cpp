#include <gtest/gtest.h>

#include "platform/drm_device.hpp"

namespace esf {
namespace {

TEST(DrmDevice, MissingPathNamesIt) {
  Result<OpenedDrmNode> n = openDrmNode("/nonexistent");
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.error().message, "cannot open DRM device '/nonexistent': No such file or directory");
}

TEST(DrmDevice, NonDrmFileIsRefused) {
  Result<OpenedDrmNode> n = openDrmNode("/dev/null");
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.error().message, "'/dev/null' is not a DRM device");
}

TEST(DrmDevice, UnknownDriverNameListsWhatExists) {
  Result<OpenedDrmNode> n = openDrmNode("no-such-driver");
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.error().message.rfind("no DRM device with driver 'no-such-driver' (found: ", 0), 0u)
      << n.error().message;
}

TEST(DrmDevice, ListedNodesHaveDriverNamesRenderFirst) {
  std::vector<DrmNode> nodes = listDrmNodes();
  bool seen_card = false;
  for (const DrmNode& n : nodes) {
    EXPECT_FALSE(n.driver.empty()) << n.path;
    if (!n.is_render_node)
      seen_card = true;
    else
      EXPECT_FALSE(seen_card) << "render nodes come first";
  }
}

}  // namespace
}  // namespace esf
