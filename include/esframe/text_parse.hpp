#pragma once
// The small text grammars that sizes, options and controls share: "640x480", "a=1,b=2",
// "name=value" and bounded integers, as libesframe and its clients parse them. One parser each, so
// every caller accepts the same spellings and reports the same errors. Errors are
// ErrorCode::kInvalidArgument and name `what` (the parameter: "size", "PNG output", "control"),
// never a command-line flag.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/base/sizes.hpp"

namespace esf {

struct ParsedSize {
  int width = 0;
  int height = 0;
  bool operator==(const ParsedSize&) const = default;
};

// "640x480" (or "640X480"): both positive and at most `max` (by default the frame limit,
// esframe/base/sizes.hpp). Error: "size '12y4': expected WxH (e.g. 640x480), each 1..16384", where
// `form` is what is expected (a grid's is "CxR (e.g. 4x3)").
ESF_API Result<ParsedSize> parseSize(std::string_view text, std::string_view what,
                                     int max = kMaxFrameSide,
                                     std::string_view form = "WxH (e.g. 640x480)");

// A decimal integer in [min, max], nothing else (no sign, no spaces, no trailing text).
ESF_API Result<uint64_t> parseUnsigned(std::string_view text, std::string_view what, uint64_t min,
                                       uint64_t max);

struct KeyValue {
  std::string key;
  std::string value;
  bool operator==(const KeyValue&) const = default;
};

// "name=value": a non-empty name and a non-empty value (the value may hold '=').
ESF_API Result<KeyValue> parseKeyValue(std::string_view text, std::string_view what);

struct KeyValueListRules {
  // The keys accepted; empty = any key.
  std::vector<std::string_view> keys;
  // Keys whose value is itself comma-separated ("rect=X,Y,W,H"): the items after such a key that
  // have no '=' are joined to its value with ','.
  std::vector<std::string_view> comma_valued_keys;
};

// "a=1,b=2" -> {{"a","1"},{"b","2"}} in order. "" is an empty list. Fails on an empty item
// ("a=1,,b=2"), an item without '=' or with an empty key or value, a key given twice, and a key
// not in rules.keys.
ESF_API Result<std::vector<KeyValue>> parseKeyValueList(std::string_view text,
                                                        std::string_view what,
                                                        const KeyValueListRules& rules = {});

}  // namespace esf
