#include "capture/v4l2_info.hpp"

#include <fcntl.h>

#include "capture/v4l2_device.hpp"

namespace esf {

nlohmann::json describeCaptureDevices() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : listV4l2CaptureDevices()) {
    nlohmann::json dev = {{"path", d.path},
                          {"driver", d.driver},
                          {"card", d.card},
                          {"bus_info", d.bus_info},
                          {"multi_planar", d.multi_planar_capture}};
    UniqueFd fd(::open(d.path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
    if (fd.valid()) {
      nlohmann::json formats = nlohmann::json::array();
      for (const auto& f : enumerateFormats(fd.get(), d.usesMultiPlanar())) {
        nlohmann::json sizes = nlohmann::json::array();
        for (const auto& s : f.sizes)
          sizes.push_back({{"size", s.size}, {"intervals", s.intervals}});
        formats.push_back({{"fourcc", f.fourcc},
                           {"description", f.description},
                           {"supported", f.supported},
                           {"sizes", sizes}});
      }
      nlohmann::json controls = nlohmann::json::array();
      for (const auto& c : enumerateControls(fd.get())) {
        nlohmann::json j = {{"name", c.name},   {"type", c.type}, {"min", c.minimum},
                            {"max", c.maximum}, {"step", c.step}, {"default", c.default_value}};
        if (c.has_value) j["value"] = c.value;
        if (!c.menu.empty()) j["menu"] = c.menu;
        controls.push_back(j);
      }
      dev["formats"] = formats;
      dev["controls"] = controls;
    }
    out.push_back(dev);
  }
  return out;
}

std::string captureDevicesText(const nlohmann::json& devices) {
  std::string s = "capture devices (V4L2):\n";
  if (devices.empty()) return s + "  none\n";
  for (const auto& d : devices) {
    s += "  " + d["path"].get<std::string>() + ": " + d["card"].get<std::string>() + " (" +
         d["driver"].get<std::string>() + ", " + d["bus_info"].get<std::string>() + ")\n";
    for (const auto& f : d.value("formats", nlohmann::json::array())) {
      s += "    " + f["fourcc"].get<std::string>() + " " + f["description"].get<std::string>() +
           (f["supported"].get<bool>() ? "" : " (not supported by esframe)") + "\n";
      for (const auto& z : f["sizes"]) {
        s += "      " + z["size"].get<std::string>();
        std::string iv;
        for (const auto& i : z["intervals"]) iv += (iv.empty() ? "" : ", ") + i.get<std::string>();
        s += iv.empty() ? "\n" : " @ " + iv + " s\n";
      }
    }
    for (const auto& c : d.value("controls", nlohmann::json::array())) {
      s += "    ctrl " + c["name"].get<std::string>() + " (" + c["type"].get<std::string>() + ") " +
           std::to_string(c["min"].get<int64_t>()) + ".." +
           std::to_string(c["max"].get<int64_t>()) + " default " +
           std::to_string(c["default"].get<int64_t>());
      if (c.contains("value")) s += " value " + std::to_string(c["value"].get<int64_t>());
      s += "\n";
    }
  }
  return s;
}

}  // namespace esf
