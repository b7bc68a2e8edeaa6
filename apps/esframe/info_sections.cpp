// The sections `esframe info` shows beyond the GPU and DRM devices.
#include "apps/esframe/commands.hpp"
#include "capture/libcamera_source.hpp"

namespace esf::cli {

InfoSection captureInfoSection();  // capture_info_section.cpp

namespace {

// libcamera's cameras, only in a build with libcamera support.
InfoSection libcameraInfoSection() {
  return InfoSection{"libcamera_cameras",
                     [](const GlobalOptions&) { return describeLibcameraCameras(); },
                     [](const nlohmann::json& j) { return libcameraCamerasText(j); }};
}

}  // namespace

std::vector<InfoSection> extraInfoSections() {
  std::vector<InfoSection> sections = {tuningInfoSection(), captureInfoSection()};
  if (libcameraSupportBuilt()) sections.push_back(libcameraInfoSection());
  return sections;
}

}  // namespace esf::cli
