#pragma once
// --output mqtt://: one JSON message per frame (or per N frames) to an MQTT broker through
// libmosquitto. The pipeline thread only appends to a bounded queue; a worker thread owns the
// connection, publishes, and reconnects with backoff, so a slow or absent broker never stalls a
// frame. When the queue is full the oldest message goes, and every message carries the count of
// messages dropped so far ("mqtt_dropped").
#include <memory>

#include "esframe/sink.hpp"
#include "esframe/sink_options.hpp"

namespace esf {

// Connects in the background; with options.required, waits up to options.connect_timeout_ms for
// the broker and fails (kNotFound for an unknown host, kTimeout otherwise) when it is not there.
Result<std::unique_ptr<FrameSink>> openMqttOutput(const MqttSinkOptions& options);

}  // namespace esf
