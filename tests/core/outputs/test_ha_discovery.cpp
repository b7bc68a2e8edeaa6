// Home Assistant discovery's pure parts: node ids from any topic, which entities a frame gets,
// removal covering every config, and null figures where a frame has none. The configs against
// Home Assistant's schema, through a real broker: tests/services/test_mqtt_discovery.py.
#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "core/outputs/ha_discovery.hpp"

namespace esf {
namespace {

MqttSinkOptions options(std::string topic) {
  MqttSinkOptions o;
  o.host = "broker";
  o.topic = std::move(topic);
  o.discovery_prefix = "homeassistant";
  return o;
}

TEST(HaDiscovery, NodeIdKeepsOnlyTheCharactersTopicsMayUse) {
  EXPECT_EQ(haNodeId(options("porch")), "esframe_porch");
  EXPECT_EQ(haNodeId(options("site 1/cams/porch.east")), "esframe_site_1_cams_porch_east");
  EXPECT_EQ(haNodeId(options("A-b_9")), "esframe_A-b_9");
  EXPECT_EQ(haNodeId(options("k\xc3\xbc")), "esframe_k__");
}

TEST(HaDiscovery, EntitiesFollowWhatTheFrameCarries) {
  FrameResult frame;
  HaEntities e = haEntitiesOf(frame);
  EXPECT_FALSE(e.luma || e.health || e.regions);
  frame.stats.push_back(ChannelStats{.channel = 'r'});
  EXPECT_FALSE(haEntitiesOf(frame).luma);
  frame.stats.push_back(ChannelStats{.channel = 'l'});
  frame.health = HealthFigures{};
  e = haEntitiesOf(frame);
  EXPECT_TRUE(e.luma && e.health);
  EXPECT_FALSE(e.regions);
  frame.health->regions.resize(1);
  EXPECT_TRUE(haEntitiesOf(frame).regions);
  EXPECT_EQ(haDiscoveryConfigs(options("c"), {}).size(), 2u);  // fps, camera
  EXPECT_EQ(haDiscoveryConfigs(options("c"), {true, true, true}).size(), 9u);
}

TEST(HaDiscovery, RemovalEmptiesEveryConfigAndTheState) {
  const MqttSinkOptions o = options("cams/porch");
  std::set<std::string> removed;
  for (const HaMessage& m : haDiscoveryRemovals(o)) {
    EXPECT_TRUE(m.payload.empty()) << m.topic;
    removed.insert(m.topic);
  }
  const std::vector<HaMessage> every = haDiscoveryConfigs(o, {true, true, true, true, true, true});
  EXPECT_EQ(every.size(), 12u);
  for (const HaMessage& m : every) {
    EXPECT_FALSE(m.payload.empty()) << m.topic;
    EXPECT_TRUE(removed.count(m.topic)) << m.topic;
  }
  EXPECT_TRUE(removed.count("cams/porch/state"));
  EXPECT_EQ(removed.size(), 13u);
}

TEST(HaDiscovery, DetectorEntitiesFollowTheDetectorsAndGrow) {
  FrameResult frame;
  frame.width = 64;
  frame.height = 48;
  frame.blur = 3.25f;
  frame.block = std::numeric_limits<float>::quiet_NaN();
  const HaEntities first = haEntitiesOf(frame);  // cropdetect's skipped frames: no figures yet
  EXPECT_TRUE(first.blur && first.block);
  EXPECT_FALSE(first.crop);
  frame.cropdetect = CropDetectFigures{0, 63, 0, 47, 64, 48, 0, 0};
  const HaEntities later = haEntitiesUnion(first, haEntitiesOf(frame));
  EXPECT_TRUE(later.blur && later.block && later.crop);
  EXPECT_EQ(haEntitiesUnion(later, HaEntities{}), later);
  std::set<std::string> topics;
  for (const HaMessage& m : haDiscoveryConfigs(options("c"), later)) topics.insert(m.topic);
  EXPECT_EQ(topics, (std::set<std::string>{"homeassistant/sensor/esframe_c/blur/config",
                                           "homeassistant/sensor/esframe_c/block/config",
                                           "homeassistant/sensor/esframe_c/fps/config",
                                           "homeassistant/binary_sensor/esframe_c/borders/config",
                                           "homeassistant/binary_sensor/esframe_c/camera/config"}));

  // The whole frame is picture: no borders; blockdetect's nan is null.
  nlohmann::json s =
      nlohmann::json::parse(haStatePayload(haFiguresOf(frame), later, HaFlags{}, -1));
  EXPECT_EQ(s.at("blur"), 3.25);
  EXPECT_TRUE(s.at("block").is_null());
  EXPECT_EQ(s.at("borders"), "OFF");
  // One black column at the right edge, then one black row at the top.
  frame.cropdetect = CropDetectFigures{0, 62, 0, 47, 48, 48, 8, 0};
  s = nlohmann::json::parse(haStatePayload(haFiguresOf(frame), later, HaFlags{}, -1));
  EXPECT_EQ(s.at("borders"), "ON");
  frame.cropdetect = CropDetectFigures{0, 63, 1, 47, 64, 32, 0, 8};
  s = nlohmann::json::parse(haStatePayload(haFiguresOf(frame), later, HaFlags{}, -1));
  EXPECT_EQ(s.at("borders"), "ON");
  // Before cropdetect's first figures the entity's state is unknown.
  frame.cropdetect.reset();
  s = nlohmann::json::parse(haStatePayload(haFiguresOf(frame), later, HaFlags{}, -1));
  EXPECT_TRUE(s.at("borders").is_null());
}

TEST(HaDiscovery, StateHasNullWhereAFigureIsUnknown) {
  const nlohmann::json s = nlohmann::json::parse(
      haStatePayload(HaFigures{}, {true, true, false}, HaFlags{true, false, false, false}, -1));
  EXPECT_TRUE(s.at("brightness").is_null());
  EXPECT_TRUE(s.at("ev_hint").is_null());
  EXPECT_TRUE(s.at("focus").is_null());
  EXPECT_TRUE(s.at("fps").is_null());
  EXPECT_EQ(s.at("black"), "ON");
  EXPECT_EQ(s.at("frozen"), "OFF");
  EXPECT_EQ(s.at("camera"), "OFF");
  EXPECT_FALSE(s.contains("covered"));
  HaFigures f;
  f.brightness = 118.25;
  f.focus = 3.5;
  const nlohmann::json t =
      nlohmann::json::parse(haStatePayload(f, {true, true, true}, HaFlags{}, 19.5));
  EXPECT_EQ(t.at("brightness"), 118.25);
  EXPECT_EQ(t.at("focus"), 3.5);
  EXPECT_EQ(t.at("fps"), 19.5);
  EXPECT_EQ(t.at("covered"), "OFF");
  EXPECT_EQ(t.at("camera"), "ON");
}

}  // namespace
}  // namespace esf
