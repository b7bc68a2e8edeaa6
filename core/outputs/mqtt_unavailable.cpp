// openMqttOutput in a build without libmosquitto (ESFRAME_MQTT=OFF, or AUTO without it).
#include "base/shared_module.hpp"
#include "core/outputs/mqtt_output.hpp"

namespace esf {

Result<std::unique_ptr<FrameSink>> openMqttOutput(const MqttSinkOptions& options) {
  const Status unsupported = moduleNotBuilt("MQTT", "libmosquitto-dev", "ESFRAME_MQTT");
  return fail(unsupported.error().code, "mqtt://", options.host, "/", options.topic, ": ",
              unsupported.error().message);
}

}  // namespace esf
