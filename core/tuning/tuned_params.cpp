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
          {"shared_atomics", p.shared_atomics}};
}

json tunedFieldsToJson(const BlurParams& p) {
  return {{"tile_width", p.tile_width},
          {"tile_rows", p.tile_rows},
          {"workgroup_size", p.workgroup_size}};
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
    default:
      s += " tile=" + std::to_string(p.tile_width) + "x" + std::to_string(p.tile_height);
      if (p.strategy != HistogramStrategy::kGlobalAtomic)
        s += " sum_wg=" + std::to_string(p.sum_workgroup_size);
  }
  return s;
}

std::string describe(const BlurParams& p) {
  return "tile=" + std::to_string(p.tile_rows) + "x" + std::to_string(p.tile_width) +
         " wg=" + std::to_string(p.workgroup_size);
}

}  // namespace esf
