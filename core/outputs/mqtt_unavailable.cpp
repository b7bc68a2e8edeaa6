// openMqttOutput in a build without libmosquitto (ESFRAME_MQTT=OFF, or AUTO without it).
#include "core/outputs/mqtt_output.hpp"

namespace esf {

Result<std::unique_ptr<FrameSink>> openMqttOutput(const MqttSinkOptions& options) {
  return fail(ErrorCode::kUnsupported, "mqtt://", options.host, "/", options.topic,
              ": this esframe was built without MQTT (libmosquitto-dev, ESFRAME_MQTT)");
}

}  // namespace esf
