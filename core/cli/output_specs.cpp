#include "core/cli/output_specs.hpp"

#include <unistd.h>

#include <string_view>
#include <vector>

#include "base/text_parse.hpp"

namespace esf::cli {
namespace {

constexpr const char* kKinds = "jsonl, csv[:bins], bin, png:DIR[,every=N], drm[:OPTIONS]";
constexpr std::string_view kPng = "--output png";
constexpr std::string_view kDrm = "--output drm";

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

Status parseGraphOption(const std::string& key, const std::string& value, std::string_view what,
                        GraphOptions& graph) {
  if (key == "mode") {
    if (value == "overlay")
      graph.mode = GraphMode::kOverlay;
    else if (value == "parade")
      graph.mode = GraphMode::kParade;
    else if (value == "luma")
      graph.mode = GraphMode::kLuma;
    else
      return fail(ErrorCode::kInvalidArgument, what, ": mode=", value,
                  ": expected overlay, parade or luma");
  } else if (key == "scale") {
    if (value != "linear" && value != "log")
      return fail(ErrorCode::kInvalidArgument, what, ": scale=", value, ": expected linear or log");
    graph.log_scale = value == "log";
  } else {  // decor
    if (value != "on" && value != "off")
      return fail(ErrorCode::kInvalidArgument, what, ": decor=", value, ": expected on or off");
    graph.decorations = value == "on";
  }
  return Status::success();
}

}  // namespace

Result<PngSinkOptions> parsePngSpec(const std::string& text) {
  // DIR first (it may hold '='), then KEY=VALUE options.
  const size_t comma = text.find(',');
  PngSinkOptions o;
  o.dir = text.substr(0, comma);
  if (o.dir.empty())
    return fail(ErrorCode::kInvalidArgument, kPng,
                " needs a folder: png:DIR[,every=N][,graph=WxH][,mode=M,scale=S,decor=on|off]");
  if (comma == std::string::npos) return o;
  if (comma + 1 == text.size())
    return fail(ErrorCode::kInvalidArgument, kPng, ": empty option after '", o.dir, ",'");
  const KeyValueListRules rules{{"every", "graph", "mode", "scale", "decor"}, {}};
  Result<std::vector<KeyValue>> items =
      parseKeyValueList(std::string_view(text).substr(comma + 1), kPng, rules);
  if (!items) return items.error();
  for (const auto& [key, value] : *items) {
    if (key == "every") {
      Result<uint64_t> n = parseUnsigned(value, std::string(kPng) + ": every", 1, 1000000);
      if (!n) return n.error();
      o.every = int(*n);
    } else if (key == "mode" || key == "scale" || key == "decor") {
      if (Status s = parseGraphOption(key, value, kPng, o.graph); !s) return s.error();
    } else {  // graph
      Result<ParsedSize> size = parseSize(value, std::string(kPng) + ": graph", 1000000);
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
                                 "mode", "scale", "decor"},
                                {"rect"}};
  Result<std::vector<KeyValue>> items = parseKeyValueList(text, kDrm, rules);
  if (!items) return items.error();
  DrmSinkOptions o;
  for (const auto& [key, value] : *items) {
    if (key == "device") {
      o.device = value;
    } else if (key == "connector") {
      o.connector = value;
    } else if (key == "mode" || key == "scale" || key == "decor") {
      if (Status s = parseGraphOption(key, value, kDrm, o.graph); !s) return s.error();
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
  if (kind == "png") {
    Result<PngSinkOptions> o = parsePngSpec(options);
    if (!o) return o.error();
    spec.kind = OutputSpec::Kind::kPng;
    spec.png = o.value();
    return spec;
  }
  if (kind == "drm") {
    Result<DrmSinkOptions> o = parseDrmSpec(options);
    if (!o) return o.error();
    spec.kind = OutputSpec::Kind::kDrm;
    spec.drm = o.value();
    return spec;
  }
  return fail(ErrorCode::kInvalidArgument, "unknown output '", text, "' (", kKinds, ")");
}

Result<std::unique_ptr<FrameSink>> createSink(const OutputSpec& spec, Pipeline& pipeline) {
  switch (spec.kind) {
    case OutputSpec::Kind::kRecord:
      return createRecordSink(STDOUT_FILENO, spec.record);
    case OutputSpec::Kind::kPng:
      return createPngSink(spec.png);
    case OutputSpec::Kind::kDrm:
      return createDrmSink(pipeline, spec.drm);
  }
  return fail(ErrorCode::kInternal, "output: unknown kind");
}

}  // namespace esf::cli
