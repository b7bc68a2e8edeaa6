#include "core/outputs/scopes_json.hpp"

#include <nlohmann/json.hpp>

namespace esf {

std::string base64LittleEndian(const std::vector<uint32_t>& words) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const size_t bytes = words.size() * 4;
  auto byte = [&](size_t i) -> uint32_t { return (words[i / 4] >> (8 * (i % 4))) & 0xFFu; };
  std::string out;
  out.reserve((bytes + 2) / 3 * 4);
  for (size_t i = 0; i < bytes; i += 3) {
    const size_t left = bytes - i;
    const uint32_t v =
        byte(i) << 16 | (left > 1 ? byte(i + 1) << 8 : 0u) | (left > 2 ? byte(i + 2) : 0u);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += left > 1 ? kAlphabet[(v >> 6) & 63] : '=';
    out += left > 2 ? kAlphabet[v & 63] : '=';
  }
  return out;
}

nlohmann::ordered_json scopesJson(const ScopeCounts& scopes) {
  using Json = nlohmann::ordered_json;
  auto array = [](std::vector<int> shape, const std::vector<uint32_t>& counts) {
    return Json{{"shape", shape}, {"dtype", "<u4"}, {"data", base64LittleEndian(counts)}};
  };
  Json j = Json::object();
  j["columns"] = scopes.columns;
  if (!scopes.waveform.empty()) j["waveform"] = array({scopes.columns, 256}, scopes.waveform);
  if (!scopes.parade.empty()) j["parade"] = array({3, scopes.columns, 256}, scopes.parade);
  if (!scopes.vectorscope.empty()) {
    j["vectorscope"] = array({256, 256}, scopes.vectorscope);
    j["vectorscope_samples"] = scopes.vectorscope_samples;
  }
  return j;
}

}  // namespace esf
