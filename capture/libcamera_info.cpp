// `esframe info`'s libcamera section: every camera, the formats and sizes of the streams it
// offers for each role, and its controls with their ranges.
#include <libcamera/property_ids.h>

#include "base/pixel_format.hpp"
#include "capture/libcamera_camera.hpp"
#include "capture/libcamera_module.hpp"
#include "capture/libcamera_source.hpp"

namespace esf {
namespace {

using nlohmann::json;

std::string sizeText(const libcamera::Size& s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}

json streamFormats(const libcamera::StreamConfiguration& cfg) {
  json formats = json::array();
  const libcamera::StreamFormats& offered = cfg.formats();
  for (const libcamera::PixelFormat& pf : offered.pixelformats()) {
    json f = {{"libcamera", pf.toString()}};
    const auto esframe = pf.modifier() == 0 ? fromDrmFourcc(pf.fourcc()) : std::nullopt;
    f["esframe"] = esframe ? json(formatName(*esframe)) : json(nullptr);
    json sizes = json::array();
    for (const libcamera::Size& s : offered.sizes(pf)) sizes.push_back(sizeText(s));
    f["sizes"] = sizes;
    const libcamera::SizeRange range = offered.range(pf);
    f["range"] = {{"min", sizeText(range.min)},
                  {"max", sizeText(range.max)},
                  {"step", sizeText({range.hStep, range.vStep})}};
    formats.push_back(f);
  }
  return formats;
}

json describeCamera(libcamera::Camera& camera) {
  json c = {{"id", camera.id()}, {"model", libcameraCameraModel(camera)}};
  json streams = json::array();
  const std::pair<libcamera::StreamRole, const char*> roles[] = {
      {libcamera::StreamRole::VideoRecording, "video"},
      {libcamera::StreamRole::Raw, "raw"},
  };
  for (const auto& [role, role_name] : roles) {
    const std::vector<libcamera::StreamRole> one = {role};  // a Span in libcamera > 0.0.3
    auto config = camera.generateConfiguration(one);
    if (!config || config->empty()) continue;
    const libcamera::StreamConfiguration& cfg = config->at(0);
    streams.push_back(
        {{"role", role_name}, {"default", cfg.toString()}, {"formats", streamFormats(cfg)}});
  }
  c["streams"] = streams;
  json controls = json::object();
  for (const auto& [id, info] : camera.controls()) controls[id->name()] = info.toString();
  c["controls"] = controls;
  return c;
}

}  // namespace

namespace libcamera_module {

json describeLibcameraCameras() {
  auto manager = sharedCameraManager();
  if (!manager) return json::object({{"error", manager.error().message}});
  json cameras = json::array();
  for (const auto& camera : (*manager)->cameras()) cameras.push_back(describeCamera(*camera));
  return cameras;
}

std::string libcameraCamerasText(const json& cameras) {
  std::string out = "libcamera cameras:\n";
  if (cameras.is_object()) return out + "  " + cameras.value("error", "?") + "\n";
  if (cameras.empty()) out += "  none\n";
  for (const json& c : cameras) {
    out +=
        "  libcamera:" + c["id"].get<std::string>() + "  (" + c["model"].get<std::string>() + ")\n";
    for (const json& s : c["streams"]) {
      out += "    " + s["role"].get<std::string>() + " stream, default " +
             s["default"].get<std::string>() + "\n";
      for (const json& f : s["formats"]) {
        const std::string esframe =
            f["esframe"].is_null() ? "not supported" : f["esframe"].get<std::string>();
        std::string sizes;
        for (const json& size : f["sizes"]) sizes += " " + size.get<std::string>();
        if (sizes.empty())
          sizes = " " + f["range"]["min"].get<std::string>() + " to " +
                  f["range"]["max"].get<std::string>();
        out += "      " + f["libcamera"].get<std::string>() + " (" + esframe + "):" + sizes + "\n";
      }
    }
    for (const auto& [name, range] : c["controls"].items())
      out += "    control " + name + " " + range.get<std::string>() + "\n";
  }
  return out;
}

}  // namespace libcamera_module

}  // namespace esf
