#pragma once
// --output mqtt://: one JSON message per frame (or per N frames) to an MQTT broker through
// libmosquitto. The pipeline thread only appends to a bounded queue; a worker thread owns the
// connection, publishes, and reconnects with backoff, so a slow or absent broker never stalls a
// frame. When the queue is full the oldest message goes, and every message carries the count of
// messages dropped so far ("mqtt_dropped").
#include <memory>
#include <string>
#include <string_view>

#include "base/shared_module.hpp"
#include "core/outputs/ha_discovery.hpp"
#include "esframe/base/log.hpp"
#include "esframe/sink.hpp"
#include "esframe/sink_options.hpp"

namespace esf {

// Connects in the background; with options.required, waits up to options.connect_timeout_ms for
// the broker and fails (kNotFound for an unknown host, kTimeout otherwise) when it is not there.
// The output lives in libesframe-mqtt.so beside libesframe.so (mqtt_output.cpp), which this loads
// on the first call (mqtt_loader.cpp), so runs without MQTT never load libmosquitto and OpenSSL;
// a missing module is kUnsupported, as in a build without MQTT.
Result<std::unique_ptr<FrameSink>> openMqttOutput(const MqttSinkOptions& options);

// What the module uses of libesframe, handed to its entry point by the loader: libesframe.so
// exports its public API only (-fvisibility=hidden) and the module links no libesframe, so its
// calls reach the libesframe that loaded it (shared, or an executable's static copy) and its one
// log state through this table (mqtt_host.cpp), not a second copy of the code.
struct MqttHost {
  void (*log_line)(LogLevel level, std::string_view message);
  std::string (*jsonl_line)(const FrameResult& frame);
  std::string (*jsonl_event_line)(const HealthEvent& event);
  HaEntities (*ha_entities_of)(const FrameResult& frame);
  std::vector<HaMessage> (*ha_discovery_configs)(const MqttSinkOptions& options,
                                                 const HaEntities& entities);
  std::vector<HaMessage> (*ha_discovery_removals)(const MqttSinkOptions& options);
  HaFigures (*ha_figures_of)(const FrameResult& frame);
  std::string (*ha_state_payload)(const HaFigures& figures, const HaEntities& entities,
                                  const HaFlags& flags, double fps);
};

// The boundary between libesframe and the module: same compiler, C++ types cross it; errors
// cross as Result, never as exceptions.
struct MqttModule {
  Result<std::unique_ptr<FrameSink>> (*open_output)(const MqttSinkOptions& options);
};
inline constexpr const char kMqttModuleFile[] = "libesframe-mqtt.so";
inline constexpr const char kMqttModuleEntry[] = "esf_mqtt_module_v5";

// The module's openMqttOutput, under a name of its own (its calls must not bind to the loader's).
namespace mqtt_module {
Result<std::unique_ptr<FrameSink>> openMqttOutput(const MqttSinkOptions& options);
// The host its entry point was given (mqtt_host.cpp calls through it).
extern const MqttHost* g_host;
}  // namespace mqtt_module

}  // namespace esf

// The module's one exported entry point: keeps `host` (valid for the process's lifetime) and
// returns the table above, valid as long.
extern "C" ESF_MODULE_ENTRY const esf::MqttModule* esf_mqtt_module_v5(const esf::MqttHost* host);
