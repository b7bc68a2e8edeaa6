#include "esframe/text_parse.hpp"

#include <algorithm>
#include <charconv>

namespace esf {
namespace {

std::string quoted(std::string_view s) {
  return "'" + std::string(s) + "'";
}

bool contains(const std::vector<std::string_view>& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

std::string joined(const std::vector<std::string_view>& list) {
  std::string s;
  for (std::string_view k : list) s += (s.empty() ? "" : ", ") + std::string(k);
  return s;
}

}  // namespace

Result<uint64_t> parseUnsigned(std::string_view text, std::string_view what, uint64_t min,
                               uint64_t max) {
  uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end || v < min || v > max)
    return fail(ErrorCode::kInvalidArgument, what, " ", quoted(text), ": expected an integer in ",
                std::to_string(min), "..", std::to_string(max));
  return v;
}

Result<ParsedSize> parseSize(std::string_view text, std::string_view what, int max,
                             std::string_view form) {
  const size_t x = text.find_first_of("xX");
  auto bad = [&] {
    return fail(ErrorCode::kInvalidArgument, what, " ", quoted(text), ": expected ", form,
                ", each 1..", std::to_string(max));
  };
  if (x == std::string_view::npos) return bad();
  Result<uint64_t> w = parseUnsigned(text.substr(0, x), what, 1, uint64_t(max));
  Result<uint64_t> h = parseUnsigned(text.substr(x + 1), what, 1, uint64_t(max));
  if (!w || !h) return bad();
  return ParsedSize{int(*w), int(*h)};
}

Result<KeyValue> parseKeyValue(std::string_view text, std::string_view what) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size())
    return fail(ErrorCode::kInvalidArgument, what, " ", quoted(text), ": expected NAME=VALUE");
  return KeyValue{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

Result<std::vector<KeyValue>> parseKeyValueList(std::string_view text, std::string_view what,
                                                const KeyValueListRules& rules) {
  std::vector<KeyValue> out;
  if (text.empty()) return out;
  bool continues_value = false;  // the last key takes the following '='-less items
  for (size_t pos = 0;;) {
    const size_t comma = text.find(',', pos);
    const std::string_view item =
        text.substr(pos, comma == std::string_view::npos ? comma : comma - pos);
    const size_t eq = item.find('=');
    if (item.empty())
      return fail(ErrorCode::kInvalidArgument, what, ": empty item in ", quoted(text));
    if (eq == std::string_view::npos && continues_value) {
      out.back().value += ",";
      out.back().value += item;
    } else {
      if (eq == std::string_view::npos || eq == 0)
        return fail(ErrorCode::kInvalidArgument, what, ": expected KEY=VALUE, got ", quoted(item),
                    rules.keys.empty() ? "" : " (keys: " + joined(rules.keys) + ")");
      KeyValue kv{std::string(item.substr(0, eq)), std::string(item.substr(eq + 1))};
      if (!rules.keys.empty() && !contains(rules.keys, kv.key))
        return fail(ErrorCode::kInvalidArgument, what, ": unknown key ", quoted(kv.key),
                    " (keys: ", joined(rules.keys), ")");
      if (kv.value.empty())
        return fail(ErrorCode::kInvalidArgument, what, ": ", kv.key, "= needs a value");
      for (const KeyValue& seen : out)
        if (seen.key == kv.key)
          return fail(ErrorCode::kInvalidArgument, what, ": ", kv.key, "= given twice");
      continues_value = contains(rules.comma_valued_keys, kv.key);
      out.push_back(std::move(kv));
    }
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return out;
}

}  // namespace esf
