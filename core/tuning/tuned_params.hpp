#pragma once
// The tuned part of each stage's parameters as JSON (the cache's and the bench's format).
// Only the fields that change speed, never the result, are tuned: bins, channels, luma,
// filter_dim and iterations stay the user's.
#include <nlohmann/json.hpp>

#include "core/stages/blur.hpp"
#include "core/stages/histogram.hpp"
#include "core/stages/reduce.hpp"
#include "esframe/base/result.hpp"

namespace esf {

nlohmann::json tunedFieldsToJson(const HistogramParams& p);
nlohmann::json tunedFieldsToJson(const BlurParams& p);
nlohmann::json tunedFieldsToJson(const ReduceParams& p);
// Copies the tuned fields from `j` over `base`; a missing or mistyped field is an error that
// names it (the cache treats that as a corrupt entry).
Result<HistogramParams> histogramFromJson(const nlohmann::json& j, HistogramParams base);
Result<BlurParams> blurFromJson(const nlohmann::json& j, BlurParams base);
Result<ReduceParams> reduceFromJson(const nlohmann::json& j, ReduceParams base);

// One line: "persistent buffer wg=1x1 n=1 ppi=4 shared_atomics=no".
std::string describe(const HistogramParams& p);
std::string describe(const BlurParams& p);
std::string describe(const ReduceParams& p);  // "buffer wg=256 n=512 ppi=8 subgroups"

}  // namespace esf
