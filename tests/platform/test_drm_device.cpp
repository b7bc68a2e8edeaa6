// DRM nodes and libdrm owners. Error cases run everywhere; the node listing is checked against
// the kernel (fstat and drmGetVersion on each node) and skips, saying so, when there is no
// /dev/dri device.
#include <drm_fourcc.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <xf86drm.h>

#include <filesystem>

#include "platform/drm_device.hpp"
#include "platform/drm_objects.hpp"

namespace esf {
namespace {

TEST(DrmDevice, MissingPathNamesIt) {
  Result<OpenedDrmNode> n = openDrmNode("/nonexistent");
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(n.error().message, "cannot open DRM device '/nonexistent': No such file or directory");
}

TEST(DrmDevice, NonDrmFileIsRefused) {
  Result<OpenedDrmNode> n = openDrmNode("/dev/null");
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(n.error().message, "'/dev/null' is not a DRM device");
}

TEST(DrmDevice, UnknownDriverNameListsWhatExists) {
  Result<OpenedDrmNode> n = openDrmNode("no-such-driver");
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(n.error().message.rfind("no DRM device with driver 'no-such-driver' (found: ", 0), 0u)
      << n.error().message;
}

// The /dev/dri character devices, as the filesystem lists them: the oracle for listDrmNodes.
std::vector<std::string> driNodesOnDisk() {
  std::vector<std::string> paths;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/dev/dri", ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_character_file() && (name.rfind("card", 0) == 0 || name.rfind("renderD", 0) == 0))
      paths.push_back(e.path().string());
  }
  return paths;
}

TEST(DrmDevice, ListedNodesMatchTheKernel) {
  const std::vector<std::string> on_disk = driNodesOnDisk();
  if (on_disk.empty()) GTEST_SKIP() << "no /dev/dri device: nothing to list (run the vm cases)";
  std::vector<DrmNode> nodes = listDrmNodes();
  ASSERT_FALSE(nodes.empty()) << "/dev/dri has " << on_disk.size() << " nodes, none listed";
  bool seen_card = false;
  for (const DrmNode& n : nodes) {
    EXPECT_NE(std::find(on_disk.begin(), on_disk.end(), n.path), on_disk.end()) << n.path;
    // Driver name and node type straight from libdrm on a fresh fd.
    UniqueFd fd(::open(n.path.c_str(), O_RDWR | O_CLOEXEC));
    ASSERT_TRUE(fd.valid()) << n.path;
    drmVersionPtr v = drmGetVersion(fd.get());
    ASSERT_NE(v, nullptr) << n.path;
    EXPECT_EQ(n.driver, std::string(v->name, size_t(v->name_len))) << n.path;
    drmFreeVersion(v);
    EXPECT_EQ(n.is_render_node, drmGetNodeTypeFromFd(fd.get()) == DRM_NODE_RENDER) << n.path;
    if (!n.is_render_node)
      seen_card = true;
    else
      EXPECT_FALSE(seen_card) << "render nodes come first";
    // Opening by path gives the same node back.
    Result<OpenedDrmNode> opened = openDrmPath(n.path);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    EXPECT_EQ(opened->node.driver, n.driver);
    struct stat a {
    }, b{};
    ASSERT_EQ(::fstat(opened->fd.get(), &a), 0);
    ASSERT_EQ(::stat(n.path.c_str(), &b), 0);
    EXPECT_EQ(a.st_rdev, b.st_rdev);
  }
}

TEST(DrmFormatName, FourCharactersAndByteOrder) {
  EXPECT_EQ(drmFormatName(DRM_FORMAT_XRGB8888), "XR24");
  EXPECT_EQ(drmFormatName(DRM_FORMAT_ARGB8888), "AR24");
  EXPECT_EQ(drmFormatName(DRM_FORMAT_NV12), "NV12");
  EXPECT_EQ(drmFormatName(DRM_FORMAT_XRGB8888 | DRM_FORMAT_BIG_ENDIAN), "XR24_BE");
  // Not a known DRM format: still its four characters.
  EXPECT_EQ(drmFormatName(fourcc_code('Q', 'q', '1', '2')), "Qq12");
}

// A kernel-object owner calls its destroy function exactly once, with its id, however it moved.
int g_destroy_calls = 0;
uint32_t g_destroyed_id = 0;
int countingDestroy(int, uint32_t id) {
  ++g_destroy_calls;
  g_destroyed_id = id;
  return 0;
}

TEST(DrmKernelObject, DestroysOnceAfterMoves) {
  g_destroy_calls = 0;
  {
    DrmKernelObject<countingDestroy> a(BorrowedFd(-1), 42);
    DrmKernelObject<countingDestroy> b(std::move(a));
    EXPECT_EQ(a.id(), 0u);
    DrmKernelObject<countingDestroy> c;
    c = std::move(b);
    EXPECT_EQ(c.id(), 42u);
    EXPECT_EQ(g_destroy_calls, 0);
  }
  EXPECT_EQ(g_destroy_calls, 1);
  EXPECT_EQ(g_destroyed_id, 42u);
}

}  // namespace
}  // namespace esf
