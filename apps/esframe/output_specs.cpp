#include "apps/esframe/output_specs.hpp"

#include <unistd.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "esframe/base/log.hpp"
#include "esframe/text_parse.hpp"

namespace esf::cli {
namespace {

constexpr const char* kKinds =
    "jsonl, csv[:bins], bin, png:DIR[,every=N], drm[:OPTIONS], mqtt://HOST[:PORT]/TOPIC[,...], "
    "prom:PATH[,every=SECONDS], http:[ADDR:]PORT[,...]";
constexpr std::string_view kPng = "--output png";
constexpr std::string_view kDrm = "--output drm";
constexpr std::string_view kMqtt = "--output mqtt";
constexpr std::string_view kProm = "--output prom";
constexpr std::string_view kHttp = "--output http";

Result<uint64_t> drmNumber(const std::string& key, std::string_view text, uint64_t max) {
  return parseUnsigned(text, std::string(kDrm) + ": " + key, 0, max);
}

Result<DrmRect> parseRect(const std::string& value) {
  std::vector<std::string_view> parts;
  std::string_view rest = value;
  for (size_t comma; (comma = rest.find(',')) != std::string_view::npos;) {
    parts.push_back(rest.substr(0, comma));
    rest.remove_prefix(comma + 1);
  }
  parts.push_back(rest);
  if (parts.size() != 4)
    return fail(ErrorCode::kInvalidArgument, kDrm, ": rect '", value,
                "': expected X,Y,W,H (four numbers)");
  uint64_t v[4];
  for (int k = 0; k < 4; ++k) {
    Result<uint64_t> n = drmNumber("rect", parts[size_t(k)], 16384);
    if (!n) return n.error();
    v[k] = *n;
  }
  if (v[2] == 0 || v[3] == 0)
    return fail(ErrorCode::kInvalidArgument, kDrm, ": rect width and height must be > 0");
  return DrmRect{int32_t(v[0]), int32_t(v[1]), uint32_t(v[2]), uint32_t(v[3])};
}

// The spec of one kind from its parsed options.
template <typename Options>
Result<OutputSpec> specOf(Result<Options> options, OutputSpec::Kind kind,
                          Options OutputSpec::*field) {
  if (!options) return options.error();
  OutputSpec spec;
  spec.kind = kind;
  spec.*field = std::move(options.value());
  return spec;
}

// "PATH[,KEY=VALUE...]": the path first (it may hold '='), then the options, keys from `keys`;
// the value of a key in `list_keys` is a comma-separated list ("hosts=a,b").
struct PathAndOptions {
  std::string path;
  std::vector<KeyValue> options;
};
Result<PathAndOptions> parsePathAndOptions(const std::string& text, std::string_view what,
                                           const char* needs, std::vector<std::string_view> keys,
                                           std::vector<std::string_view> list_keys = {}) {
  const size_t comma = text.find(',');
  PathAndOptions parts;
  parts.path = text.substr(0, comma);
  if (parts.path.empty()) return fail(ErrorCode::kInvalidArgument, what, " needs ", needs);
  if (comma == std::string::npos) return parts;
  if (comma + 1 == text.size())
    return fail(ErrorCode::kInvalidArgument, what, ": empty option after '", parts.path, ",'");
  Result<std::vector<KeyValue>> items =
      parseKeyValueList(std::string_view(text).substr(comma + 1), what,
                        KeyValueListRules{std::move(keys), std::move(list_keys)});
  if (!items) return items.error();
  parts.options = std::move(items.value());
  return parts;
}

Status parseGraphOption(const std::string& key, const std::string& value, std::string_view what,
                        GraphOptions& graph) {
  if (key == "mode") {
    if (value == "overlay")
      graph.mode = GraphMode::kOverlay;
    else if (value == "parade")
      graph.mode = GraphMode::kParade;
    else if (value == "luma" && graph.source != GraphSource::kRaw)
      graph.mode = GraphMode::kLuma;
    else if (value == "luma")
      return fail(ErrorCode::kInvalidArgument, what,
                  ": mode=luma draws the l channel, which the raw source has not: use overlay or "
                  "parade");
    else
      return fail(ErrorCode::kInvalidArgument, what, ": mode=", value,
                  ": expected overlay, parade or luma");
  } else if (key == "scale") {
    if (value != "linear" && value != "log")
      return fail(ErrorCode::kInvalidArgument, what, ": scale=", value, ": expected linear or log");
    graph.log_scale = value == "log";
  } else if (key == "scope") {
    if (value == "waveform")
      graph.scope = GraphScope::kWaveform;
    else if (value == "parade")
      graph.scope = GraphScope::kParade;
    else if (value == "vectorscope")
      graph.scope = GraphScope::kVectorscope;
    else
      return fail(ErrorCode::kInvalidArgument, what, ": scope=", value,
                  ": expected waveform, parade or vectorscope");
  } else if (key == "source") {
    if (value != "image" && value != "raw")
      return fail(ErrorCode::kInvalidArgument, what, ": source=", value, ": expected image or raw");
    graph.source = value == "raw" ? GraphSource::kRaw : GraphSource::kImage;
    if (graph.source == GraphSource::kRaw && graph.mode == GraphMode::kLuma)
      return fail(ErrorCode::kInvalidArgument, what,
                  ": mode=luma draws the l channel, which the raw source has not: use overlay or "
                  "parade");
  } else {  // decor
    if (value != "on" && value != "off")
      return fail(ErrorCode::kInvalidArgument, what, ": decor=", value, ": expected on or off");
    graph.decorations = value == "on";
  }
  return Status::success();
}

// A key whose value is an integer in [min, max], kept in an int field of the options.
template <typename Options>
struct NumberKey {
  std::string_view key;
  int Options::*field;
  uint64_t min, max;
};

// Sets the field of the one of `keys` named `key` (none: nothing), its value checked in range.
template <typename Options, size_t N>
Status setNumberKey(const NumberKey<Options> (&keys)[N], std::string_view what,
                    const std::string& key, const std::string& value, Options& o) {
  for (const NumberKey<Options>& k : keys) {
    if (k.key != key) continue;
    Result<uint64_t> n = parseUnsigned(value, std::string(what) + ": " + key, k.min, k.max);
    if (!n) return n.error();
    o.*k.field = int(*n);
  }
  return Status::success();
}

}  // namespace

Result<PngSinkOptions> parsePngSpec(const std::string& text) {
  Result<PathAndOptions> parts = parsePathAndOptions(
      text, kPng,
      "a folder: png:DIR[,every=N][,graph=WxH][,mode=M,scale=S,decor=on|off,source=image|raw,"
      "scope=waveform|parade|vectorscope]",
      {"every", "graph", "mode", "scale", "decor", "source", "scope"});
  if (!parts) return parts.error();
  PngSinkOptions o;
  o.dir = parts->path;
  for (const auto& [key, value] : parts->options) {
    if (key == "every") {
      Result<uint64_t> n = parseUnsigned(value, std::string(kPng) + ": every", 1, 1000000);
      if (!n) return n.error();
      o.every = int(*n);
    } else if (key == "mode" || key == "scale" || key == "decor" || key == "source" ||
               key == "scope") {
      if (Status s = parseGraphOption(key, value, kPng, o.graph); !s) return s.error();
    } else {  // graph
      Result<ParsedSize> size = parseSize(value, std::string(kPng) + ": graph");
      if (!size) return size.error();
      o.graph_width = size->width;
      o.graph_height = size->height;
    }
  }
  return o;
}

Result<DrmSinkOptions> parseDrmSpec(const std::string& text) {
  // rect=X,Y,W,H carries its own commas: its three other numbers are the next items.
  const KeyValueListRules rules{{"device", "connector", "plane", "zpos", "alpha", "rect", "buffers",
                                 "mode", "scale", "decor", "frame", "source", "scope"},
                                {"rect"}};
  Result<std::vector<KeyValue>> items = parseKeyValueList(text, kDrm, rules);
  if (!items) return items.error();
  DrmSinkOptions o;
  for (const auto& [key, value] : *items) {
    if (key == "device") {
      o.device = value;
    } else if (key == "connector") {
      o.connector = value;
    } else if (key == "mode" || key == "scale" || key == "decor" || key == "source" ||
               key == "scope") {
      if (Status s = parseGraphOption(key, value, kDrm, o.graph); !s) return s.error();
    } else if (key == "frame") {
      if (value != "on" && value != "off")
        return fail(ErrorCode::kInvalidArgument, kDrm, ": frame=", value, ": expected on or off");
      o.frame = value == "on";
    } else if (key == "rect") {
      Result<DrmRect> r = parseRect(value);
      if (!r) return r.error();
      o.rect = *r;
    } else {  // plane, zpos, alpha, buffers: numbers
      Result<uint64_t> v = drmNumber(key, value, key == "plane" ? 0xffffffffu : 0xffff);
      if (!v) return v.error();
      if (key == "plane") {
        if (*v == 0) return fail(ErrorCode::kInvalidArgument, kDrm, ": plane=0 is not a plane id");
        o.plane_id = uint32_t(*v);
      } else if (key == "zpos") {
        o.zpos = *v;
      } else if (key == "alpha") {
        o.alpha = *v;
      } else {
        if (*v != 2 && *v != 3)
          return fail(ErrorCode::kInvalidArgument, kDrm, ": buffers=", value, ": expected 2 or 3");
        o.buffers = int(*v);
      }
    }
  }
  return o;
}

Result<MqttSinkOptions> parseMqttSpec(const std::string& text) {
  // HOST[:PORT]/TOPIC first, then options; "retain" and "insecure" stand alone as mosquitto_pub's
  // flags do, the others are KEY=VALUE.
  const size_t comma = text.find(',');
  const std::string address = text.substr(0, comma);
  const size_t slash = address.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == address.size())
    return fail(ErrorCode::kInvalidArgument, kMqtt, ": expected mqtt://HOST[:PORT]/TOPIC, got '",
                "mqtt://", address, "'");
  MqttSinkOptions o;
  o.host = address.substr(0, slash);
  o.topic = address.substr(slash + 1);
  if (const size_t colon = o.host.rfind(':'); colon != std::string::npos) {
    Result<uint64_t> port = parseUnsigned(std::string_view(o.host).substr(colon + 1),
                                          std::string(kMqtt) + ": port", 1, 65535);
    if (!port) return port.error();
    o.port = int(*port);
    o.host.resize(colon);
  }
  if (o.host.empty()) return fail(ErrorCode::kInvalidArgument, kMqtt, ": empty host");
  if (o.topic.find_first_of("+#") != std::string::npos)
    return fail(ErrorCode::kInvalidArgument, kMqtt, ": topic '", o.topic,
                "' holds a wildcard (+ or #): publish topics cannot");
  if (comma == std::string::npos) return o;
  std::string key_values;
  int other_items = 0;
  std::string_view rest = std::string_view(text).substr(comma + 1);
  while (true) {
    const size_t next = rest.find(',');
    const std::string_view item = rest.substr(0, next);
    if (item == "retain") {
      o.retain = true;
    } else if (item == "insecure") {
      o.insecure = true;
    } else {
      key_values += (other_items++ ? "," : "") + std::string(item);  // "" stays an empty item
    }
    if (next == std::string_view::npos) break;
    rest.remove_prefix(next + 1);
  }
  struct TextKey {
    std::string_view key;
    std::string MqttSinkOptions::*field;
  };
  static const TextKey kTextKeys[] = {{"id", &MqttSinkOptions::id},
                                      {"username", &MqttSinkOptions::username},
                                      {"pw", &MqttSinkOptions::password},
                                      {"cafile", &MqttSinkOptions::cafile},
                                      {"capath", &MqttSinkOptions::capath},
                                      {"cert", &MqttSinkOptions::cert},
                                      {"key", &MqttSinkOptions::key},
                                      {"tls-version", &MqttSinkOptions::tls_version},
                                      {"will-topic", &MqttSinkOptions::will_topic},
                                      {"discovery-prefix", &MqttSinkOptions::discovery_prefix},
                                      {"name", &MqttSinkOptions::device_name}};
  static const NumberKey<MqttSinkOptions> kNumberKeys[] = {
      {"qos", &MqttSinkOptions::qos, 0, 1},
      {"every", &MqttSinkOptions::every, 1, 1000000},
      {"queue", &MqttSinkOptions::queue, 1, 1000000},
      {"keepalive", &MqttSinkOptions::keepalive, 5, 65535},
      {"state-every", &MqttSinkOptions::discovery_state_every_s, 1, 86400}};
  KeyValueListRules rules;
  for (const TextKey& k : kTextKeys) rules.keys.push_back(k.key);
  for (const auto& k : kNumberKeys) rules.keys.push_back(k.key);
  rules.keys.push_back("discovery");
  Result<std::vector<KeyValue>> items = parseKeyValueList(key_values, kMqtt, rules);
  if (!items) return items.error();
  std::string discovery;
  bool discovery_keys = false;  // discovery-prefix, name or state-every given
  for (const auto& [key, value] : *items) {
    if (key == "discovery") discovery = value;
    discovery_keys =
        discovery_keys || key == "discovery-prefix" || key == "name" || key == "state-every";
    for (const TextKey& k : kTextKeys)
      if (k.key == key) o.*k.field = value;
    if (Status s = setNumberKey(kNumberKeys, kMqtt, key, value, o); !s) return s.error();
  }
  if ((!o.cert.empty() || !o.key.empty() || !o.tls_version.empty() || o.insecure) &&
      o.cafile.empty() && o.capath.empty())
    return fail(ErrorCode::kInvalidArgument, kMqtt,
                ": cert, key, tls-version and insecure need TLS: give cafile or capath");
  if (o.cert.empty() != o.key.empty())
    return fail(ErrorCode::kInvalidArgument, kMqtt, ": cert and key go together");
  // discovery=homeassistant announces the run to Home Assistant, discovery=remove takes the
  // announcement back; discovery-prefix moves them from Home Assistant's default prefix.
  if (!discovery.empty() && discovery != "homeassistant" && discovery != "remove")
    return fail(ErrorCode::kInvalidArgument, kMqtt, ": discovery is homeassistant or remove, got '",
                discovery, "'");
  if (discovery.empty() && discovery_keys)
    return fail(ErrorCode::kInvalidArgument, kMqtt,
                ": discovery-prefix, name and state-every need discovery=homeassistant");
  if (o.discovery_prefix.find_first_of("+#") != std::string::npos)
    return fail(ErrorCode::kInvalidArgument, kMqtt, ": discovery-prefix '", o.discovery_prefix,
                "' holds a wildcard (+ or #): publish topics cannot");
  if (!discovery.empty() && o.discovery_prefix.empty()) o.discovery_prefix = "homeassistant";
  o.discovery_remove = discovery == "remove";
  return o;
}

Result<PromSinkOptions> parsePromSpec(const std::string& text) {
  Result<PathAndOptions> parts = parsePathAndOptions(
      text, kProm, "a file: prom:PATH[,every=SECONDS] (node_exporter reads *.prom)", {"every"});
  if (!parts) return parts.error();
  PromSinkOptions o;
  o.path = parts->path;
  for (const KeyValue& item : parts->options) {
    Result<uint64_t> n = parseUnsigned(item.value, std::string(kProm) + ": every", 0, 86400);
    if (!n) return n.error();
    o.every_s = int(*n);
  }
  return o;
}

Result<HttpSinkOptions> parseHttpSpec(const std::string& text) {
  Result<PathAndOptions> parts = parsePathAndOptions(
      text, kHttp, "a port: http:[ADDR:]PORT[,clients=N,every=N,user=U,password-file=F,...]",
      {"clients", "every", "snapshot-every", "quality", "timeout", "queue", "user", "password-file",
       "hosts", "cert", "key", "graph", "mode", "scale", "decor", "scope"},
      {"hosts"});
  if (!parts) return parts.error();
  HttpSinkOptions o;
  // [ADDR:]PORT; an IPv6 address in brackets: [::1]:8080.
  std::string_view address = parts->path;
  const size_t colon = address.rfind(':');
  if (colon != std::string_view::npos) {
    std::string_view host = address.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
      host = host.substr(1, host.size() - 2);
    else if (host.find(':') != std::string_view::npos)
      return fail(ErrorCode::kInvalidArgument, kHttp, ": '", parts->path,
                  "': an IPv6 address goes in brackets: http:[::1]:PORT");
    if (host.empty()) return fail(ErrorCode::kInvalidArgument, kHttp, ": empty address");
    o.address = std::string(host);
    address.remove_prefix(colon + 1);
  }
  Result<uint64_t> port = parseUnsigned(address, std::string(kHttp) + ": port", 0, 65535);
  if (!port) return port.error();
  o.port = int(*port);
  static const NumberKey<HttpSinkOptions> kNumberKeys[] = {
      {"clients", &HttpSinkOptions::clients, 1, 1024},
      {"every", &HttpSinkOptions::every, 1, 1000000},
      {"snapshot-every", &HttpSinkOptions::snapshot_every, 0, 1000000},
      {"quality", &HttpSinkOptions::quality, 1, 100},
      {"timeout", &HttpSinkOptions::timeout_s, 1, 3600},
      {"queue", &HttpSinkOptions::queue, 1, 10000}};
  for (const auto& [key, value] : parts->options) {
    if (key == "user") {
      o.user = value;
    } else if (key == "password-file") {
      o.password_file = value;
    } else if (key == "hosts") {  // hosts=NAME[,NAME...]: the library checks each name
      for (size_t start = 0; start <= value.size();) {
        const size_t comma = std::min(value.find(',', start), value.size());
        o.allowed_hosts.push_back(value.substr(start, comma - start));
        start = comma + 1;
      }
    } else if (key == "cert") {
      o.cert = value;
    } else if (key == "key") {
      o.key = value;
    } else if (key == "mode" || key == "scale" || key == "decor" || key == "scope") {
      if (Status s = parseGraphOption(key, value, kHttp, o.graph); !s) return s.error();
    } else if (key == "graph") {
      Result<ParsedSize> size = parseSize(value, std::string(kHttp) + ": graph");
      if (!size) return size.error();
      o.graph_width = size->width;
      o.graph_height = size->height;
    } else if (Status s = setNumberKey(kNumberKeys, kHttp, key, value, o); !s) {
      return s.error();
    }
  }
  if (o.user.empty() != o.password_file.empty())
    return fail(ErrorCode::kInvalidArgument, kHttp, ": user and password-file go together");
  if (o.cert.empty() != o.key.empty())
    return fail(ErrorCode::kInvalidArgument, kHttp, ": cert and key go together");
  return o;
}

Result<OutputSpec> parseOutputSpec(const std::string& text) {
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const bool has_options = colon != std::string::npos;
  const std::string options = has_options ? text.substr(colon + 1) : "";
  OutputSpec spec;
  if (kind == "jsonl" || kind == "bin") {
    if (has_options)
      return fail(ErrorCode::kInvalidArgument, "--output ", kind, " takes no options, got '", text,
                  "'");
    spec.record.format = kind == "jsonl" ? RecordFormat::kJsonl : RecordFormat::kBinary;
    return spec;
  }
  if (kind == "csv") {
    if (has_options && options != "bins")
      return fail(ErrorCode::kInvalidArgument, "--output csv: unknown option '", options,
                  "' (csv or csv:bins)");
    spec.record.format = RecordFormat::kCsv;
    spec.record.csv_bins = has_options;
    return spec;
  }
  if (kind == "png") return specOf(parsePngSpec(options), OutputSpec::Kind::kPng, &OutputSpec::png);
  if (kind == "drm") return specOf(parseDrmSpec(options), OutputSpec::Kind::kDrm, &OutputSpec::drm);
  if (kind == "mqtt") {
    if (options.rfind("//", 0) != 0)
      return fail(ErrorCode::kInvalidArgument, kMqtt, ": expected mqtt://HOST[:PORT]/TOPIC, got '",
                  text, "'");
    return specOf(parseMqttSpec(options.substr(2)), OutputSpec::Kind::kMqtt, &OutputSpec::mqtt);
  }
  if (kind == "prom")
    return specOf(parsePromSpec(options), OutputSpec::Kind::kProm, &OutputSpec::prom);
  if (kind == "http")
    return specOf(parseHttpSpec(options), OutputSpec::Kind::kHttp, &OutputSpec::http);
  return fail(ErrorCode::kInvalidArgument, "unknown output '", text, "' (", kKinds, ")");
}

Result<std::unique_ptr<FrameSink>> createSink(const OutputSpec& spec, Pipeline& pipeline) {
  switch (spec.kind) {
    case OutputSpec::Kind::kRecord:
      return createRecordSink(STDOUT_FILENO, spec.record, pipeline);
    case OutputSpec::Kind::kPng:
      return createPngSink(spec.png);
    case OutputSpec::Kind::kDrm:
      return createDrmSink(pipeline, spec.drm);
    case OutputSpec::Kind::kMqtt:
      return createMqttSink(spec.mqtt);
    case OutputSpec::Kind::kProm:
      return createPromSink(spec.prom);
    case OutputSpec::Kind::kHttp: {
      // The server's start-up lines (the URL it listens on, what it exposes) are said whatever
      // the log level: a user needs the URL, and the port when the kernel picked it.
      const LogLevel level = logLevel();
      if (level < LogLevel::kInfo) setLogLevel(LogLevel::kInfo);
      Result<std::unique_ptr<FrameSink>> sink = createHttpSink(spec.http);
      setLogLevel(level);
      return sink;
    }
  }
  return fail(ErrorCode::kInternal, "output: unknown kind");
}

}  // namespace esf::cli
