#pragma once
// DRM nodes: listing them with their kernel driver names, and opening one by path or by driver
// name. Boards such as a Pi 4 have several DRM devices whose numbers change between boots
// (vc4 for display, v3d for render), so a driver name is the stable way to pick one.
#include <string>
#include <vector>

#include "esframe/base/result.hpp"
#include "esframe/base/unique_fd.hpp"

namespace esf {

struct DrmNode {
  std::string path;    // /dev/dri/renderD128 or /dev/dri/card0
  std::string driver;  // kernel driver name from drmGetVersion: "v3d", "vgem", "vkms"
  bool is_render_node = false;
};

// Every DRM node in /dev/dri whose driver answers drmGetVersion, render nodes first.
std::vector<DrmNode> listDrmNodes();

struct OpenedDrmNode {
  DrmNode node;
  UniqueFd fd;
};

// `spec` is a path (anything with a '/') or a driver name. For a driver name the render node is
// preferred over the card node. Errors name the device and say why.
Result<OpenedDrmNode> openDrmNode(const std::string& spec, bool prefer_render = true);

// Opens a path and checks that it is a DRM node (drmGetVersion answers).
Result<OpenedDrmNode> openDrmPath(const std::string& path);

}  // namespace esf
