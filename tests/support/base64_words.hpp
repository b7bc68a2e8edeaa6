#pragma once
// The JSONL's compact counts (docs/output-formats.md, "Scopes": RFC 4648 base64 of little-endian
// uint32 words), decoded here for the tests that read them back, apart from the library's encoder.
#include <cstdint>
#include <string>
#include <vector>

namespace esf::test {

inline std::vector<uint32_t> base64Words(const std::string& text) {
  std::vector<uint8_t> bytes;
  uint32_t bits = 0;
  int have = 0;
  for (char ch : text) {
    const int v = ch >= 'A' && ch <= 'Z'   ? ch - 'A'
                  : ch >= 'a' && ch <= 'z' ? ch - 'a' + 26
                  : ch >= '0' && ch <= '9' ? ch - '0' + 52
                  : ch == '+'              ? 62
                  : ch == '/'              ? 63
                                           : -1;
    if (v < 0) continue;  // '=' padding
    bits = bits << 6 | uint32_t(v);
    have += 6;
    if (have >= 8) {
      have -= 8;
      bytes.push_back(uint8_t(bits >> have));
    }
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i)
    words[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 |
               uint32_t(bytes[4 * i + 2]) << 16 | uint32_t(bytes[4 * i + 3]) << 24;
  return words;
}

}  // namespace esf::test
