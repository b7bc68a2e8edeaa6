#pragma once
// Plain options of the sinks that write files or talk to services (esframe/sinks.hpp creates
// them): PNG files, MQTT and the Prometheus textfile, the HTTP server. Data only, so the outputs
// that implement them can include it.
#include <string>
#include <vector>

#include "esframe/graph_options.hpp"

namespace esf {

struct PngSinkOptions {
  std::string dir;  // created if missing; frame files and graph files are written atomically
  int every = 1;    // every Nth frame
  int graph_width = 512;
  int graph_height = 256;
  GraphOptions graph;      // mode, scale, decorations of graph-SEQ.png
  bool overwrite = false;  // replace frame and graph files already there (default: an error)
};

struct MqttSinkOptions {
  std::string host;  // name or address
  int port = 0;      // 0: 1883, or 8883 when TLS is configured (cafile or capath)
  std::string topic;
  int qos = 0;  // 0 or 1; with 1, libmosquitto resends what the broker had not acknowledged
  bool retain = false;
  int every = 1;       // every Nth frame
  int queue = 100;     // messages held while the broker is away; then the oldest are dropped
  std::string id;      // client id; empty: "esframe-<pid>"
  int keepalive = 60;  // seconds
  // As mosquitto_pub names them: --username, --pw, --cafile, --capath, --cert, --key,
  // --tls-version, --insecure.
  std::string username, password;
  std::string cafile, capath, cert, key, tls_version;
  bool insecure = false;
  // Last will, retained: "offline" on will_topic when the board vanishes; "online" is published
  // there on every connect and "offline" again on a clean finish. Empty: TOPIC/status.
  std::string will_topic;
  // true: creation fails when the broker is not reachable within connect_timeout_ms. false: a
  // warning, and the sink keeps trying in the background.
  bool required = false;
  int connect_timeout_ms = 5000;
  // Home Assistant MQTT discovery. With a prefix (Home Assistant's default: "homeassistant"):
  // retained configs under PREFIX/sensor|binary_sensor/esframe_TOPIC/KEY/config for the figures
  // the run computes, their states in one retained JSON object on TOPIC/state (at the first
  // frame, when a health state changes, when frames stop for three intervals, and at most every
  // discovery_state_every_s otherwise), and the status topic above as their availability. With
  // discovery_remove: empty retained payloads on every config topic and TOPIC/state instead.
  std::string discovery_prefix;  // empty: no discovery
  bool discovery_remove = false;
  std::string device_name;  // the device Home Assistant shows; empty: "esframe TOPIC"
  int discovery_state_every_s = 5;
};

struct PromSinkOptions {
  std::string path;  // the .prom file (node_exporter reads *.prom in its textfile directory)
  int every_s = 5;   // rewrite at most this often (0: every frame), and at the end of the run
};

struct HttpSinkOptions {
  std::string address = "127.0.0.1";  // an IPv4 or IPv6 address; "0.0.0.0" or "::" for all
  int port = 0;                       // 0: a free port the kernel picks
  int clients = 8;                    // concurrent streams; one more is answered 503
  int every = 1;                      // /api/events: every Nth frame
  // /frame.jpg, /stream.mjpg: a JPEG at most every Nth frame, of FrameResult::image (the
  // pipeline must keep it: PipelineConfig::image_needed); 0: no snapshots, those paths are 404.
  int snapshot_every = 1;
  int quality = 85;    // JPEG quality, 1..100
  int timeout_s = 10;  // a connection without progress for this long is closed
  int queue = 16;      // messages a stream client may fall behind before it is dropped
  // HTTP basic auth when `user` is set: the password is the first line of password_file.
  std::string user, password_file;
  // Without auth, a request is answered only when its Host header names this server: an IP
  // address, localhost, this machine's host name (also with ".local"), or one of these names
  // (DNS names the board is reached by, e.g. "camera-kitchen.local"; compared ignoring case and
  // the Host header's port). Any other name gets 421: it is what DNS rebinding sends.
  std::vector<std::string> allowed_hosts;
  // TLS when both are set: PEM files.
  std::string cert, key;
  int graph_width = 512, graph_height = 256;
  GraphOptions graph;  // /graph.png, as --output png draws it
};

}  // namespace esf
