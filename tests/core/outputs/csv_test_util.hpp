#pragma once
// Reading back the CSV output in tests: a line split into its fields (quotes undone) and a
// field looked up by its column's name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace esf::test {

// The fields of one CSV line (its newline dropped), with RFC 4180 quoting undone.
inline std::vector<std::string> splitCsv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"') {
      if (quoted && i + 1 < line.size() && line[i + 1] == '"')
        out.back() += line[++i];
      else
        quoted = !quoted;
    } else if (c == ',' && !quoted) {
      out.emplace_back();
    } else if (c != '\n') {
      out.back() += c;
    }
  }
  return out;
}

// The field of `row` under the column `name` of `header`; a failure (and "") where there is none.
inline std::string csvColumn(const std::vector<std::string>& header,
                             const std::vector<std::string>& row, const std::string& name) {
  for (size_t i = 0; i < header.size() && i < row.size(); ++i)
    if (header[i] == name) return row[i];
  ADD_FAILURE() << "no column " << name;
  return std::string();
}

}  // namespace esf::test
