// openMqttOutput in a build with libmosquitto: libesframe-mqtt.so (mqtt_output.cpp) is loaded on
// the first MQTT output, so runs without one never load libmosquitto, libssl and libcrypto. A
// static libesframe links the module's code in (ESF_MODULES_LINKED) and calls it directly.
#include "base/shared_module.hpp"
#include "core/outputs/jsonl_output.hpp"
#include "core/outputs/mqtt_output.hpp"

namespace esf {
namespace {

// What the module calls of libesframe (MqttHost says why a table).
const MqttHost kHost{&logLine, &jsonlLine, &jsonlEventLine};

}  // namespace

Result<std::unique_ptr<FrameSink>> openMqttOutput(const MqttSinkOptions& options) {
#ifdef ESF_MODULES_LINKED
  const MqttModule* module = esf_mqtt_module_v3(&kHost);
#else
  // kUnsupported, as in a build without MQTT: this esframe cannot speak MQTT.
  static const Result<const void*> table =
      loadModuleEntry(kMqttModuleFile, kMqttModuleEntry, &kHost, ErrorCode::kUnsupported);
  if (!table)
    return fail(table.error().code, "mqtt://", options.host, "/", options.topic, ": ",
                table.error().message);
  const auto* module = static_cast<const MqttModule*>(table.value());
#endif
  return module->open_output(options);
}

}  // namespace esf
