#pragma once
// The scopes' counts in JSON (docs/output-formats.md, "Scopes"): each counted scope as
// {"shape": [...], "dtype": "<u4", "data": "<base64 of the little-endian uint32 counts>"} (numpy's
// names: np.frombuffer(base64.b64decode(data), "<u4").reshape(shape)), beside "columns" and
// "vectorscope_samples".
#include <cstdint>
#include <string>
#include <vector>

#include "esframe/scope_data.hpp"

namespace esf {

// Appends standard base64 (RFC 4648, with padding) of the counts as little-endian 32-bit words.
void appendBase64LittleEndian(std::string& out, const std::vector<uint32_t>& words);

// Appends the scopes' JSON object, compact: {"columns":N,"waveform":{...},...}.
void appendScopesJson(std::string& out, const ScopeCounts& scopes);

}  // namespace esf
