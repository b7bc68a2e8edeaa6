#pragma once
// The words of a closed enum, written once as a table: the same rows name a value, read a name
// back, and list the names an error quotes. Header-only and stateless, so that a module compiling
// one of the tables' files (base/io_mode.cpp) needs nothing else of base.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "esframe/base/result.hpp"

namespace esf {

template <typename E>
struct EnumName {
  E value;
  const char* name;
};

// The name of `value`, or `unknown` where the table has no row for it.
template <typename E, size_t N>
constexpr const char* nameIn(const EnumName<E> (&table)[N], E value, const char* unknown = "?") {
  for (const EnumName<E>& row : table)
    if (row.value == value) return row.name;
  return unknown;
}

// The value named exactly `name`, if a row has it.
template <typename E, size_t N>
constexpr std::optional<E> valueIn(const EnumName<E> (&table)[N], std::string_view name) {
  for (const EnumName<E>& row : table)
    if (name == row.name) return row.value;
  return std::nullopt;
}

// "auto, gles, cpu": every name, in the table's order, for a message that lists what is accepted.
template <typename E, size_t N>
std::string namesIn(const EnumName<E> (&table)[N]) {
  std::string names;
  for (const EnumName<E>& row : table) {
    if (!names.empty()) names += ", ";
    names += row.name;
  }
  return names;
}

// The value named `name`, or kInvalidArgument "unknown <what> '<name>' (<the names>)".
template <typename E, size_t N>
Result<E> parseNameIn(const EnumName<E> (&table)[N], std::string_view name, std::string_view what) {
  if (std::optional<E> value = valueIn(table, name)) return *value;
  return fail(ErrorCode::kInvalidArgument, "unknown ", what, " '", name, "' (", namesIn(table),
              ")");
}

}  // namespace esf
