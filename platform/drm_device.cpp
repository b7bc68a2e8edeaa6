#include "platform/drm_device.hpp"

#include <fcntl.h>
#include <xf86drm.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace esf {
namespace {

std::string driverName(int fd) {
  drmVersionPtr v = drmGetVersion(fd);
  if (!v) return {};
  std::string name(v->name, v->name_len);
  drmFreeVersion(v);
  return name;
}

}  // namespace

Result<OpenedDrmNode> openDrmPath(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_CLOEXEC));
  if (!fd.valid()) return fail("cannot open DRM device '", path, "': ", std::strerror(errno));
  std::string driver = driverName(fd.get());
  if (driver.empty()) return fail("'", path, "' is not a DRM device");
  bool render = drmGetNodeTypeFromFd(fd.get()) == DRM_NODE_RENDER;
  return OpenedDrmNode{DrmNode{path, driver, render}, std::move(fd)};
}

std::vector<DrmNode> listDrmNodes() {
  std::vector<DrmNode> nodes;
  drmDevicePtr devices[64];
  int n = drmGetDevices2(0, devices, 64);
  for (int i = 0; i < std::max(n, 0); ++i) {
    for (int type : {DRM_NODE_RENDER, DRM_NODE_PRIMARY}) {
      if (!(devices[i]->available_nodes & (1 << type))) continue;
      std::string path = devices[i]->nodes[type];
      UniqueFd fd(::open(path.c_str(), O_RDWR | O_CLOEXEC));
      if (!fd.valid()) continue;
      std::string driver = driverName(fd.get());
      if (!driver.empty()) nodes.push_back({path, driver, type == DRM_NODE_RENDER});
    }
  }
  if (n > 0) drmFreeDevices(devices, n);
  std::stable_sort(nodes.begin(), nodes.end(), [](const DrmNode& a, const DrmNode& b) {
    return a.is_render_node > b.is_render_node;
  });
  return nodes;
}

Result<OpenedDrmNode> openDrmNode(const std::string& spec, bool prefer_render) {
  if (spec.find('/') != std::string::npos) return openDrmPath(spec);
  std::vector<DrmNode> nodes = listDrmNodes();
  const DrmNode* pick = nullptr;
  for (const DrmNode& n : nodes) {
    if (n.driver != spec) continue;
    if (!pick || (n.is_render_node == prefer_render && pick->is_render_node != prefer_render))
      pick = &n;
  }
  if (!pick) {
    std::string have;
    for (const DrmNode& n : nodes)
      have += (have.empty() ? "" : ", ") + n.path + " (" + n.driver + ")";
    return fail("no DRM device with driver '", spec, "' (found: ", have.empty() ? "none" : have,
                ")");
  }
  return openDrmPath(pick->path);
}

}  // namespace esf
