// The sections `esframe info` shows beyond the GPU and DRM devices.
#include "core/cli/commands.hpp"

namespace esf::cli {

InfoSection captureInfoSection();  // capture_info_section.cpp

std::vector<InfoSection> extraInfoSections() {
  return {tuningInfoSection(), captureInfoSection()};
}

}  // namespace esf::cli
