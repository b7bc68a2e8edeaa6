#pragma once
// Helpers for the `esframe run` tests that compare its output with expectations computed here:
// a scratch directory, a PPM writer (written by hand, so no esframe code makes the input), and
// the run-and-parse steps.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/run_command.hpp"

namespace esf::test {

// Keys in the order esframe printed them (the CSV columns and bin fields follow that order).
using OrderedJson = nlohmann::ordered_json;

struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    char tmpl[] = "/tmp/esframe-run-expect-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~ScratchDir() { std::filesystem::remove_all(path); }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

struct Rgb {
  uint8_t r, g, b;
};

// A binary PPM (P6) of width x height whose pixel (x, y) is colour(x, y).
template <typename ColourAt>
void writePpm(const std::filesystem::path& path, int width, int height, ColourAt colour) {
  std::ofstream out(path, std::ios::binary);
  out << "P6\n" << width << " " << height << "\n255\n";
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const Rgb c = colour(x, y);
      out.put(char(c.r)).put(char(c.g)).put(char(c.b));
    }
  }
  ASSERT_TRUE(out.good()) << path;
}

// `esframe args...`, which must exit 0; its stdout.
inline std::string runOk(const std::vector<std::string>& args) {
  CommandResult r = runEsframe(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

inline std::vector<OrderedJson> parseJsonLines(const std::string& out) {
  std::vector<OrderedJson> lines;
  size_t start = 0;
  while (start < out.size()) {
    const size_t end = out.find('\n', start);
    EXPECT_NE(end, std::string::npos) << "last line not terminated";
    if (end == std::string::npos) break;
    lines.push_back(OrderedJson::parse(out.substr(start, end - start)));
    start = end + 1;
  }
  return lines;
}

}  // namespace esf::test
