#pragma once
// Home Assistant MQTT discovery for --output mqtt:...,discovery=homeassistant: retained configs
// that make one Home Assistant device per esframe output (its topic), with a sensor or binary
// sensor per figure the run computes, all reading one retained JSON state on TOPIC/state. The
// single-component schema of https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery
// (every Home Assistant since 2021 reads it); tests/services/ha_discovery_reference.json holds
// the fields relied on.
#include <optional>
#include <string>
#include <vector>

#include "esframe/sink.hpp"
#include "esframe/sink_options.hpp"

namespace esf {

// One retained message (QoS 1).
struct HaMessage {
  std::string topic;
  std::string payload;
};

// Which figures a run's frames carry: brightness and EV hint need the luma channel, focus,
// entropy, black and frozen need health, covered needs regions, blur, block and borders need
// --detect's blur, block and crop.
struct HaEntities {
  bool luma = false;
  bool health = false;
  bool regions = false;
  bool blur = false;
  bool block = false;
  bool crop = false;
  bool operator==(const HaEntities&) const = default;
};
HaEntities haEntitiesOf(const FrameResult& frame);
// Those of either: cropdetect skips a run's first frames, so its entity comes later. (Inline:
// the MQTT module calls it without going through its host table.)
inline HaEntities haEntitiesUnion(const HaEntities& a, const HaEntities& b) {
  return {a.luma || b.luma, a.health || b.health, a.regions || b.regions,
          a.blur || b.blur, a.block || b.block,   a.crop || b.crop};
}

// The binary sensors' states: the health intervals open (from the events, as TOPIC/health) and
// whether frames arrive.
struct HaFlags {
  bool black = false, frozen = false, covered = false;
  bool camera = true;
  bool operator==(const HaFlags&) const = default;
};

// The node id in every topic and unique id: "esframe_" and the output's topic with each
// character outside [A-Za-z0-9_-] made '_' (stable across restarts: the topic is the user's).
std::string haNodeId(const MqttSinkOptions& options);
inline std::string haStateTopic(const MqttSinkOptions& options) {
  return options.topic + "/state";
}
// The configs of the entities `entities` has, in a fixed order.
std::vector<HaMessage> haDiscoveryConfigs(const MqttSinkOptions& options,
                                          const HaEntities& entities);
// An empty retained payload for every config esframe can announce, and for the state: Home
// Assistant removes the entities and the broker forgets the messages.
std::vector<HaMessage> haDiscoveryRemovals(const MqttSinkOptions& options);
// A frame's figures for the sensors (the last frame's stay on while frames are away).
struct HaFigures {
  std::optional<double> brightness, ev_hint, focus, entropy;
  std::optional<double> blur, block;  // null where ffmpeg prints nan
  // cropdetect's box (over the frames so far) leaves out a line at any edge of the frame.
  std::optional<bool> borders;
};
HaFigures haFiguresOf(const FrameResult& frame);
// The state object the configs' value templates read: a member for every entity `entities`
// has, null where the figure is not known (fps < 0: not yet known).
std::string haStatePayload(const HaFigures& figures, const HaEntities& entities,
                           const HaFlags& flags, double fps);

}  // namespace esf
