// The sections `esframe info` shows beyond the GPU and DRM devices.
#include "commands.hpp"

namespace esf::cli {

std::vector<InfoSection> extraInfoSections() { return {}; }

}  // namespace esf::cli
