// openMqttOutput in a build with libmosquitto: libesframe-mqtt.so (mqtt_output.cpp) is loaded on
// the first MQTT output, so runs without one never load libmosquitto, libssl and libcrypto. A
// static libesframe links the module's code in (ESF_MODULES_LINKED) and calls it directly.
#include "base/shared_module.hpp"
#include "core/outputs/jsonl_output.hpp"
#include "core/outputs/mqtt_output.hpp"

namespace esf {
namespace {

// What the module calls of libesframe (MqttHost says why a table).
const MqttHost kHost{&logLine,      &jsonlLine,          &jsonlEventLine,
                     &haEntitiesOf, &haDiscoveryConfigs, &haDiscoveryRemovals,
                     &haFiguresOf,  &haStatePayload};

}  // namespace

Result<std::unique_ptr<FrameSink>> openMqttOutput(const MqttSinkOptions& options) {
  static const Result<const MqttModule*> module =
      loadOptionalModule(OptionalModule<MqttModule, MqttHost>{kMqttModuleFile, kMqttModuleEntry,
                                                              ESF_LINKED_ENTRY(esf_mqtt_module_v5)},
                         kHost);
  if (!module)
    return fail(module.error().code, "mqtt://", options.host, "/", options.topic, ": ",
                module.error().message);
  return module.value()->open_output(options);
}

}  // namespace esf
