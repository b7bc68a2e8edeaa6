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

Status readString(const json& j, const char* name, std::string* out) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_string())
    return fail(ErrorCode::kCorruptData, "tuned parameters: field '", name,
                "' missing or not a string");
  *out = it->get<std::string>();
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
          {"buffer_intermediate", p.buffer_intermediate}};
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
        readInt(j, "pixels_per_invocation", &p.pixels_per_invocation)}) {
    if (!s) return s.error();
  }
  auto atomics = j.find("shared_atomics");
  if (atomics == j.end() || !atomics->is_boolean())
    return fail(ErrorCode::kCorruptData,
                "tuned parameters: field 'shared_atomics' missing or not a boolean");
  p.shared_atomics = atomics->get<bool>();
  // Added in round 2 (issue 12): optional, so older cache entries stay usable.
  if (auto r = j.find("replicas"); r != j.end()) {
    if (!r->is_number_integer())
      return fail(ErrorCode::kCorruptData, "tuned parameters: field 'replicas' is not an integer");
    p.replicas = r->get<int>();
  }
  if (auto r = j.find("run_length"); r != j.end()) {
    if (!r->is_boolean())
      return fail(ErrorCode::kCorruptData, "tuned parameters: field 'run_length' is not a boolean");
    p.run_length = r->get<bool>();
  }
  if (auto r = j.find("planar"); r != j.end()) {
    if (!r->is_boolean())
      return fail(ErrorCode::kCorruptData, "tuned parameters: field 'planar' is not a boolean");
    p.planar = r->get<bool>();
  }
  if (auto r = j.find("batch_loads"); r != j.end()) {  // round 3
    if (!r->is_boolean())
      return fail(ErrorCode::kCorruptData,
                  "tuned parameters: field 'batch_loads' is not a boolean");
    p.batch_loads = r->get<bool>();
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
  // Added in round 2 (issue 12): optional, so older cache entries (tiled) stay usable.
  if (auto it = j.find("strategy"); it != j.end()) {
    if (!it->is_string())
      return fail(ErrorCode::kCorruptData, "tuned parameters: field 'strategy' is not a string");
    Result<BlurStrategy> st = parseBlurStrategy(it->get<std::string>());
    if (!st) return st.error();
    p.strategy = st.value();
  } else {
    p.strategy = BlurStrategy::kTiled;
  }
  if (auto it = j.find("segment"); it != j.end()) {
    if (!it->is_number_integer())
      return fail(ErrorCode::kCorruptData, "tuned parameters: field 'segment' is not an integer");
    p.segment = it->get<int>();
  }
  if (auto it = j.find("prefetch"); it != j.end()) {  // absent in caches before round 3: 1
    if (!it->is_number_integer())
      return fail(ErrorCode::kCorruptData, "tuned parameters: field 'prefetch' is not an integer");
    p.prefetch = it->get<int>();
  }
  if (auto it = j.find("buffer_intermediate"); it != j.end()) {  // round 3: absent = false
    if (!it->is_boolean())
      return fail(ErrorCode::kCorruptData,
                  "tuned parameters: field 'buffer_intermediate' is not a boolean");
    p.buffer_intermediate = it->get<bool>();
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
           (p.buffer_intermediate ? " via-buffer" : "");
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
                   readInt(j, "pixels_per_invocation", &p.pixels_per_invocation)}) {
    if (!s) return s.error();
  }
  auto sub = j.find("subgroups");
  if (sub == j.end() || !sub->is_boolean())
    return fail(ErrorCode::kCorruptData,
                "tuned parameters: field 'subgroups' missing or not a boolean");
  p.subgroups = sub->get<bool>();
  if (auto a = j.find("accumulators"); a != j.end()) {
    if (!a->is_number_integer())
      return fail(ErrorCode::kCorruptData,
                  "tuned parameters: field 'accumulators' is not an integer");
    p.accumulators = a->get<int>();
  }
  if (auto b = j.find("batch_loads"); b != j.end()) {  // absent in caches before round 3: false
    if (!b->is_boolean())
      return fail(ErrorCode::kCorruptData,
                  "tuned parameters: field 'batch_loads' is not a boolean");
    p.batch_loads = b->get<bool>();
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
