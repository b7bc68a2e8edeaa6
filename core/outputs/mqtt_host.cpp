// The module's side of MqttHost (mqtt_output.hpp), compiled into libesframe-mqtt.so only: the
// libesframe functions the module calls are defined here, each a call through the table its
// loader handed to esf_mqtt_module_v5. A static libesframe links the module's code in and binds
// these calls directly.
#include "core/outputs/ha_discovery.hpp"
#include "core/outputs/jsonl_output.hpp"
#include "core/outputs/mqtt_output.hpp"

namespace esf {

using mqtt_module::g_host;

void logLine(LogLevel level, std::string_view message) {
  g_host->log_line(level, message);
}
std::string jsonlLine(const FrameResult& frame) {
  return g_host->jsonl_line(frame);
}
std::string jsonlEventLine(const HealthEvent& event) {
  return g_host->jsonl_event_line(event);
}
HaEntities haEntitiesOf(const FrameResult& frame) {
  return g_host->ha_entities_of(frame);
}
std::vector<HaMessage> haDiscoveryConfigs(const MqttSinkOptions& options,
                                          const HaEntities& entities) {
  return g_host->ha_discovery_configs(options, entities);
}
std::vector<HaMessage> haDiscoveryRemovals(const MqttSinkOptions& options) {
  return g_host->ha_discovery_removals(options);
}
HaFigures haFiguresOf(const FrameResult& frame) {
  return g_host->ha_figures_of(frame);
}
std::string haStatePayload(const HaFigures& figures, const HaEntities& entities,
                           const HaFlags& flags, double fps) {
  return g_host->ha_state_payload(figures, entities, flags, fps);
}

}  // namespace esf
