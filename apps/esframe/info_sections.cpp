// The sections `esframe info` shows beyond the GPU and DRM devices.
#include "apps/esframe/commands.hpp"
#include "esframe/base/log.hpp"
#include "esframe/capture_devices.hpp"

namespace esf::cli {

InfoSection captureInfoSection();  // capture_info_section.cpp

InfoSection listingSection(std::string key,
                           std::function<Result<DeviceListing>(const GlobalOptions&)> list) {
  // The text comes with the listing: kept from collect() for print_text().
  auto text = std::make_shared<std::string>();
  InfoSection s;
  s.key = std::move(key);
  s.collect = [list = std::move(list), text](const GlobalOptions& global) -> nlohmann::json {
    Result<DeviceListing> listing = list(global);
    if (!listing) {
      logError(listing.error().message);
      throw CLI::RuntimeError(kExitFailure);
    }
    *text = listing->text;
    return nlohmann::json::parse(listing->json);
  };
  s.print_text = [text](const nlohmann::json&) { return *text; };
  return s;
}

namespace {

// libcamera's cameras, only in a build with libcamera support.
InfoSection libcameraInfoSection() {
  return listingSection("libcamera_cameras",
                        [](const GlobalOptions&) { return listLibcameraCameras(); });
}

}  // namespace

std::vector<InfoSection> extraInfoSections() {
  std::vector<InfoSection> sections = {tuningInfoSection(), captureInfoSection()};
  if (libcameraBuilt()) sections.push_back(libcameraInfoSection());
  return sections;
}

}  // namespace esf::cli
