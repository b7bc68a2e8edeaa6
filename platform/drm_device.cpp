#include "platform/drm_device.hpp"

#include <fcntl.h>
#include <xf86drm.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "platform/drm_objects.hpp"

namespace esf {
namespace {

std::string driverName(BorrowedFd fd) {
  DrmVersion v(drmGetVersion(fd.get()));
  if (!v) return {};
  return std::string(v->name, size_t(v->name_len));
}

// The devices drmGetDevices2 returns, freed together.
struct DrmDeviceList {
  drmDevicePtr devices[64] = {};
  int count = 0;
  DrmDeviceList() : count(std::max(drmGetDevices2(0, devices, 64), 0)) {}
  ~DrmDeviceList() {
    if (count > 0) drmFreeDevices(devices, count);
  }
  DrmDeviceList(const DrmDeviceList&) = delete;
  DrmDeviceList& operator=(const DrmDeviceList&) = delete;
};

}  // namespace

std::string drmFormatName(uint32_t format) {
  // drmGetFormatName returns a malloc()ed name; null only when out of memory.
  std::unique_ptr<char, decltype(&std::free)> name(drmGetFormatName(format), &std::free);
  if (name) return name.get();
  std::string s;
  for (int i = 0; i < 4; ++i) s += char((format >> (8 * i)) & 0xff);
  return s;
}

Result<OpenedDrmNode> openDrmPath(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_CLOEXEC));
  if (!fd.valid())
    return fail(errorCodeFromErrno(errno), "cannot open DRM device '", path,
                "': ", std::strerror(errno));
  std::string driver = driverName(fd);
  if (driver.empty()) return fail(ErrorCode::kNotFound, "'", path, "' is not a DRM device");
  bool render = drmGetNodeTypeFromFd(fd.get()) == DRM_NODE_RENDER;
  return OpenedDrmNode{DrmNode{path, driver, render}, std::move(fd)};
}

std::vector<DrmNode> listDrmNodes() {
  std::vector<DrmNode> nodes;
  DrmDeviceList list;
  for (int i = 0; i < list.count; ++i) {
    for (int type : {DRM_NODE_RENDER, DRM_NODE_PRIMARY}) {
      if (!(list.devices[i]->available_nodes & (1 << type))) continue;
      std::string path = list.devices[i]->nodes[type];
      UniqueFd fd(::open(path.c_str(), O_RDWR | O_CLOEXEC));
      if (!fd.valid()) continue;
      std::string driver = driverName(fd);
      if (!driver.empty()) nodes.push_back({path, driver, type == DRM_NODE_RENDER});
    }
  }
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
    return fail(ErrorCode::kNotFound, "no DRM device with driver '", spec,
                "' (found: ", have.empty() ? "none" : have, ")");
  }
  return openDrmPath(pick->path);
}

}  // namespace esf
