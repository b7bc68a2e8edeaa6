#include "core/outputs/scopes_json.hpp"

namespace esf {

void appendBase64LittleEndian(std::string& out, const std::vector<uint32_t>& words) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const size_t bytes = words.size() * 4;
  auto byte = [&](size_t i) -> uint32_t { return (words[i / 4] >> (8 * (i % 4))) & 0xFFu; };
  out.reserve(out.size() + (bytes + 2) / 3 * 4);
  for (size_t i = 0; i < bytes; i += 3) {
    const size_t left = bytes - i;
    const uint32_t v =
        byte(i) << 16 | (left > 1 ? byte(i + 1) << 8 : 0u) | (left > 2 ? byte(i + 2) : 0u);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += left > 1 ? kAlphabet[(v >> 6) & 63] : '=';
    out += left > 2 ? kAlphabet[v & 63] : '=';
  }
}

void appendScopesJson(std::string& out, const ScopeCounts& scopes) {
  const std::string columns = std::to_string(scopes.columns);
  auto array = [&](const char* name, const std::string& shape,
                   const std::vector<uint32_t>& counts) {
    if (counts.empty()) return;
    out.append(",\"").append(name).append("\":{\"shape\":[").append(shape);
    out.append("],\"dtype\":\"<u4\",\"data\":\"");
    appendBase64LittleEndian(out, counts);
    out.append("\"}");
  };
  out.append("{\"columns\":").append(columns);
  array("waveform", columns + ",256", scopes.waveform);
  array("parade", "3," + columns + ",256", scopes.parade);
  array("vectorscope", "256,256", scopes.vectorscope);
  if (!scopes.vectorscope.empty())
    out.append(",\"vectorscope_samples\":").append(std::to_string(scopes.vectorscope_samples));
  out += '}';
}

}  // namespace esf
