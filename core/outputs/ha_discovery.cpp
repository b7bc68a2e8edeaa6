#include "core/outputs/ha_discovery.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "core/outputs/frame_summary.hpp"
#include "esframe/version.hpp"

namespace esf {
namespace {

using Json = nlohmann::ordered_json;

// Every entity esframe can announce: its object id (also its member in the state object), its
// Home Assistant platform, name, device class and unit where one applies, and what it needs.
struct EntitySpec {
  const char* key;
  const char* component;
  const char* name;
  const char* device_class;  // nullptr: none
  const char* unit;          // nullptr: none
  const char* icon;
  int precision;            // suggested_display_precision, sensors only
  bool HaEntities::*needs;  // nullptr: every run has it
};

constexpr EntitySpec kEntities[] = {
    {"brightness", "sensor", "Brightness", nullptr, nullptr, "mdi:brightness-6", 1,
     &HaEntities::luma},
    {"ev_hint", "sensor", "EV hint", nullptr, "EV", "mdi:camera-iris", 2, &HaEntities::luma},
    {"focus", "sensor", "Focus", nullptr, nullptr, "mdi:image-filter-center-focus", 0,
     &HaEntities::health},
    {"entropy", "sensor", "Entropy", nullptr, "bit", "mdi:chart-bell-curve", 2,
     &HaEntities::health},
    {"blur", "sensor", "Blur", nullptr, nullptr, "mdi:blur", 2, &HaEntities::blur},
    {"block", "sensor", "Blockiness", nullptr, nullptr, "mdi:grid", 2, &HaEntities::block},
    {"fps", "sensor", "Frame rate", nullptr, "fps", "mdi:speedometer", 1, nullptr},
    {"black", "binary_sensor", "Black picture", "problem", nullptr, "mdi:television-off", 0,
     &HaEntities::health},
    {"frozen", "binary_sensor", "Frozen picture", "problem", nullptr, "mdi:snowflake", 0,
     &HaEntities::health},
    {"covered", "binary_sensor", "Covered", "tamper", nullptr, "mdi:camera-off", 0,
     &HaEntities::regions},
    {"borders", "binary_sensor", "Black borders", "problem", nullptr, "mdi:crop", 0,
     &HaEntities::crop},
    {"camera", "binary_sensor", "Camera", "connectivity", nullptr, "mdi:cctv", 0, nullptr},
};

std::string configTopic(const MqttSinkOptions& o, const EntitySpec& e) {
  return o.discovery_prefix + "/" + e.component + "/" + haNodeId(o) + "/" + e.key + "/config";
}

std::string statusTopic(const MqttSinkOptions& o) {
  return o.will_topic.empty() ? o.topic + "/status" : o.will_topic;
}

const char* onOff(bool on) {
  return on ? "ON" : "OFF";
}

}  // namespace

HaEntities haEntitiesOf(const FrameResult& frame) {
  HaEntities e;
  for (const ChannelStats& s : frame.stats) e.luma = e.luma || s.channel == 'l';
  e.health = frame.health.has_value();
  e.regions = e.health && !frame.health->regions.empty();
  e.blur = frame.blur.has_value();
  e.block = frame.block.has_value();
  e.crop = frame.cropdetect.has_value();
  return e;
}

std::string haNodeId(const MqttSinkOptions& o) {
  std::string id = "esframe_" + o.topic;
  for (char& c : id) {
    const bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!allowed) c = '_';
  }
  return id;
}

std::vector<HaMessage> haDiscoveryConfigs(const MqttSinkOptions& o, const HaEntities& entities) {
  const std::string node = haNodeId(o);
  Json identifiers = Json::array();
  identifiers.push_back(node);
  const Json device = {{"identifiers", identifiers},
                       {"name", o.device_name.empty() ? "esframe " + o.topic : o.device_name},
                       {"manufacturer", "esframe"},
                       {"model", "camera health"},
                       {"sw_version", ESFRAME_VERSION_STRING}};
  const Json origin = {{"name", "esframe"}, {"sw_version", ESFRAME_VERSION_STRING}};
  std::vector<HaMessage> messages;
  for (const EntitySpec& e : kEntities) {
    if (e.needs && !(entities.*e.needs)) continue;
    const bool binary = std::string_view(e.component) == "binary_sensor";
    Json c;
    c["name"] = e.name;
    c["unique_id"] = node + "_" + e.key;
    c["state_topic"] = haStateTopic(o);
    c["value_template"] = std::string("{{ value_json.") + e.key + " }}";
    if (e.device_class) c["device_class"] = e.device_class;
    if (binary) {
      c["payload_on"] = "ON";
      c["payload_off"] = "OFF";
    } else {
      c["state_class"] = "measurement";
      if (e.unit) c["unit_of_measurement"] = e.unit;
      c["suggested_display_precision"] = e.precision;
    }
    c["icon"] = e.icon;
    // The last will: every entity is unavailable while esframe is away.
    Json availability = Json::array();
    availability.push_back({{"topic", statusTopic(o)},
                            {"payload_available", "online"},
                            {"payload_not_available", "offline"}});
    c["availability"] = availability;
    c["device"] = device;
    c["origin"] = origin;
    messages.push_back({configTopic(o, e), c.dump()});
  }
  return messages;
}

std::vector<HaMessage> haDiscoveryRemovals(const MqttSinkOptions& o) {
  std::vector<HaMessage> messages;
  for (const EntitySpec& e : kEntities) messages.push_back({configTopic(o, e), ""});
  messages.push_back({haStateTopic(o), ""});
  return messages;
}

HaFigures haFiguresOf(const FrameResult& frame) {
  HaFigures f;
  for (const ChannelStats& c : frame.stats)
    if (c.channel == 'l') f.brightness = c.mean;
  f.ev_hint = frameEvHint(frame);
  if (frame.health) {
    f.focus = frame.health->tenengrad;
    f.entropy = frame.health->entropy;
  }
  for (auto [figure, value] : {std::pair{&f.blur, &frame.blur}, {&f.block, &frame.block}})
    if (*value && !std::isnan(**value)) *figure = double(**value);
  if (frame.cropdetect) {
    const CropDetectFigures& c = *frame.cropdetect;
    f.borders = c.x1 > 0 || c.y1 > 0 || c.x2 < frame.width - 1 || c.y2 < frame.height - 1;
  }
  return f;
}

std::string haStatePayload(const HaFigures& figures, const HaEntities& entities,
                           const HaFlags& flags, double fps) {
  Json s = Json::object();
  auto figure = [&](const char* key, const std::optional<double>& value) {
    if (value)
      s[key] = *value;
    else
      s[key] = nullptr;
  };
  if (entities.luma) {
    figure("brightness", figures.brightness);
    figure("ev_hint", figures.ev_hint);
  }
  if (entities.health) {
    figure("focus", figures.focus);
    figure("entropy", figures.entropy);
  }
  if (entities.blur) figure("blur", figures.blur);
  if (entities.block) figure("block", figures.block);
  figure("fps", fps >= 0 ? std::optional<double>(fps) : std::nullopt);
  if (entities.health) {
    s["black"] = onOff(flags.black);
    s["frozen"] = onOff(flags.frozen);
  }
  if (entities.regions) s["covered"] = onOff(flags.covered);
  if (entities.crop) {
    if (figures.borders)
      s["borders"] = onOff(*figures.borders);
    else
      s["borders"] = nullptr;  // cropdetect's skipped frames
  }
  s["camera"] = onOff(flags.camera);
  return s.dump();
}

}  // namespace esf
