#include "core/tuning/tuned_params.hpp"

namespace esf {

using nlohmann::json;

namespace {

// Reads integer field `name` into *out; fails naming the field.
Status readInt(const json& j, const char* name, int* out) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_number_integer())
    return fail(ErrorCode::kCorruptData, "tuned parameters: field '", name,
                "' missing or not an integer");
  *out = it->get<int>();
  return {};
}

Status readBool(const json& j, const char* name, bool* out) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_boolean())
    return fail(ErrorCode::kCorruptData, "tuned parameters: field '", name,
                "' missing or not a boolean");
  *out = it->get<bool>();
  return {};
}

Status readString(const json& j, const char* name, std::string* out) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_string())
    return fail(ErrorCode::kCorruptData, "tuned parameters: field '", name,
                "' missing or not a string");
  *out = it->get<std::string>();
  return {};
}

// Fields added after the first cache format: absent keeps *out (the default older entries
// were tuned with); present but of another type fails naming the field.
Status readOptionalInt(const json& j, const char* name, int* out) {
  auto it = j.find(name);
  if (it == j.end()) return {};
  if (!it->is_number_integer())
    return fail(ErrorCode::kCorruptData, "tuned parameters: field '", name, "' is not an integer");
  *out = it->get<int>();
  return {};
}

Status readOptionalBool(const json& j, const char* name, bool* out) {
  auto it = j.find(name);
  if (it == j.end()) return {};
  if (!it->is_boolean())
    return fail(ErrorCode::kCorruptData, "tuned parameters: field '", name, "' is not a boolean");
  *out = it->get<bool>();
  return {};
}

}  // namespace

json tunedFieldsToJson(const HistogramParams& p) {
  return {{"strategy", histogramStrategyName(p.strategy)},
          {"source", imageSourceName(p.source)},
          {"tile_width", p.tile_width},
          {"tile_height", p.tile_height},
          {"sum_workgroup_size", p.sum_workgroup_size},
          {"workgroups", p.workgroups},
          {"workgroup_size", p.workgroup_size},
          {"pixels_per_invocation", p.pixels_per_invocation},
          {"shared_atomics", p.shared_atomics},
          {"replicas", p.replicas},
          {"run_length", p.run_length},
          {"planar", p.planar},
          {"batch_loads", p.batch_loads}};
}

json tunedFieldsToJson(const BlurParams& p) {
  return {{"strategy", blurStrategyName(p.strategy)},
          {"tile_width", p.tile_width},
          {"tile_rows", p.tile_rows},
          {"workgroup_size", p.workgroup_size},
          {"segment", p.segment},
          {"prefetch", p.prefetch},
          {"buffer_intermediate", p.buffer_intermediate},
          {"column_quads", p.column_quads},
          {"row_quads", p.row_quads}};
}

Result<HistogramParams> histogramFromJson(const json& j, HistogramParams p) {
  if (!j.is_object())
    return fail(ErrorCode::kCorruptData, "tuned parameters: histogram entry is not an object");
  std::string strategy, source;
  for (Status s :
       {readString(j, "strategy", &strategy), readString(j, "source", &source),
        readInt(j, "tile_width", &p.tile_width), readInt(j, "tile_height", &p.tile_height),
        readInt(j, "sum_workgroup_size", &p.sum_workgroup_size),
        readInt(j, "workgroups", &p.workgroups), readInt(j, "workgroup_size", &p.workgroup_size),
        readInt(j, "pixels_per_invocation", &p.pixels_per_invocation),
        readBool(j, "shared_atomics", &p.shared_atomics)}) {
    if (!s) return s.error();
  }
  // Optional: cache entries written before these fields existed stay usable.
  for (Status s :
       {readOptionalInt(j, "replicas", &p.replicas),
        readOptionalBool(j, "run_length", &p.run_length), readOptionalBool(j, "planar", &p.planar),
        readOptionalBool(j, "batch_loads", &p.batch_loads)}) {
    if (!s) return s.error();
  }
  Result<HistogramStrategy> st = parseHistogramStrategy(strategy);
  // A name this build does not know, read from stored parameters: the data is bad.
  if (!st) return recode(st.error(), ErrorCode::kCorruptData);
  p.strategy = st.value();
  Result<ImageSource> src = parseImageSource(source);
  if (!src) return recode(src.error(), ErrorCode::kCorruptData);
  p.source = src.value();
  return p;
}

Result<BlurParams> blurFromJson(const json& j, BlurParams p) {
  if (!j.is_object())
    return fail(ErrorCode::kCorruptData, "tuned parameters: blur entry is not an object");
  for (Status s : {readInt(j, "tile_width", &p.tile_width), readInt(j, "tile_rows", &p.tile_rows),
                   readInt(j, "workgroup_size", &p.workgroup_size)}) {
    if (!s) return s.error();
  }
  // Optional: cache entries written before blur strategies existed (all tiled) stay usable.
  if (auto it = j.find("strategy"); it != j.end()) {
    if (!it->is_string())
      return fail(ErrorCode::kCorruptData, "tuned parameters: field 'strategy' is not a string");
    Result<BlurStrategy> st = parseBlurStrategy(it->get<std::string>());
    if (!st) return st.error();
    p.strategy = st.value();
  } else {
    p.strategy = BlurStrategy::kTiled;
  }
  for (Status s :
       {readOptionalInt(j, "segment", &p.segment), readOptionalInt(j, "prefetch", &p.prefetch),
        readOptionalBool(j, "buffer_intermediate", &p.buffer_intermediate),
        readOptionalBool(j, "column_quads", &p.column_quads),
        readOptionalBool(j, "row_quads", &p.row_quads)}) {
    if (!s) return s.error();
  }
  return p;
}

std::string describe(const HistogramParams& p) {
  std::string s = std::string(histogramStrategyName(p.strategy)) + " " + imageSourceName(p.source);
  switch (p.strategy) {
    case HistogramStrategy::kSingle:
      break;
    case HistogramStrategy::kPersistent:
      s += " wg=" + std::to_string(p.workgroup_size) + " n=" + std::to_string(p.workgroups) +
           " ppi=" + std::to_string(p.pixels_per_invocation) +
           (p.shared_atomics ? "" : " shared_atomics=no");
      break;
    case HistogramStrategy::kReplicated:
      s += " wg=" + std::to_string(p.workgroup_size) + " n=" + std::to_string(p.workgroups) +
           " ppi=" + std::to_string(p.pixels_per_invocation) +
           " replicas=" + std::to_string(p.replicas) + (p.run_length ? " rle" : " no-rle") +
           (p.planar ? " planar" : "") + (p.batch_loads ? " batched" : "");
      break;
    default:
      s += " tile=" + std::to_string(p.tile_width) + "x" + std::to_string(p.tile_height);
      if (p.strategy != HistogramStrategy::kGlobalAtomic)
        s += " sum_wg=" + std::to_string(p.sum_workgroup_size);
  }
  return s;
}

namespace {
std::string prefetchSuffix(const BlurParams& p) {
  return p.prefetch > 1 ? " prefetch=" + std::to_string(p.prefetch) : "";
}
}  // namespace

std::string describe(const BlurParams& p) {
  if (p.strategy == BlurStrategy::kSliding)
    return "sliding segment=" + std::to_string(p.segment) +
           " wg=" + std::to_string(p.workgroup_size) + prefetchSuffix(p);
  if (p.strategy == BlurStrategy::kStream)
    return "stream rows=" + std::to_string(p.tile_rows) + " columns=" + std::to_string(p.segment) +
           " wg=" + std::to_string(p.workgroup_size);
  if (p.strategy == BlurStrategy::kFused || p.strategy == BlurStrategy::kSplit)
    return std::string(blurStrategyName(p.strategy)) + " tile=" + std::to_string(p.tile_rows) +
           "x" + std::to_string(p.tile_width) + " segment=" + std::to_string(p.segment) +
           " wg=" + std::to_string(p.workgroup_size) +
           (p.strategy == BlurStrategy::kSplit ? prefetchSuffix(p) : "") +
           (p.buffer_intermediate ? " via-buffer" : "") + (p.column_quads ? " quads" : "") +
           (p.row_quads ? " row-quads" : "");
  return "tile=" + std::to_string(p.tile_rows) + "x" + std::to_string(p.tile_width) +
         " wg=" + std::to_string(p.workgroup_size);
}

json tunedFieldsToJson(const ReduceParams& p) {
  return {{"source", imageSourceName(p.source)},
          {"workgroups", p.workgroups},
          {"workgroup_size", p.workgroup_size},
          {"pixels_per_invocation", p.pixels_per_invocation},
          {"subgroups", p.subgroups},
          {"accumulators", p.accumulators},
          {"batch_loads", p.batch_loads}};
}

Result<ReduceParams> reduceFromJson(const json& j, ReduceParams p) {
  if (!j.is_object())
    return fail(ErrorCode::kCorruptData, "tuned parameters: reduce entry is not an object");
  std::string source;
  for (Status s : {readString(j, "source", &source), readInt(j, "workgroups", &p.workgroups),
                   readInt(j, "workgroup_size", &p.workgroup_size),
                   readInt(j, "pixels_per_invocation", &p.pixels_per_invocation),
                   readBool(j, "subgroups", &p.subgroups)}) {
    if (!s) return s.error();
  }
  for (Status s : {readOptionalInt(j, "accumulators", &p.accumulators),
                   readOptionalBool(j, "batch_loads", &p.batch_loads)}) {
    if (!s) return s.error();
  }
  Result<ImageSource> src = parseImageSource(source);
  if (!src) return src.error();
  p.source = src.value();
  return p;
}

std::string describe(const ReduceParams& p) {
  return std::string(imageSourceName(p.source)) + " wg=" + std::to_string(p.workgroup_size) +
         " n=" + std::to_string(p.workgroups) + " ppi=" + std::to_string(p.pixels_per_invocation) +
         (p.subgroups ? " subgroups" : " shared-tree") +
         (p.accumulators > 0 ? " acc=" + std::to_string(p.accumulators) : " partials") +
         (p.batch_loads ? " batched" : "");
}

}  // namespace esf
