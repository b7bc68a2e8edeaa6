#pragma once
// Small helpers for the capture tests: a fresh temporary folder, whole-file writes, seeded bytes
// and a frame's planes as one byte string.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "esframe/frame.hpp"

namespace esf::test {

inline std::string makeTempDir() {
  std::string tmpl = ::testing::TempDir() + "esf-capture-XXXXXX";
  if (!mkdtemp(tmpl.data())) ADD_FAILURE() << "mkdtemp failed";
  return tmpl;
}

inline void writeFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  if (!bytes.empty()) {
    ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), f), bytes.size());
  }
  std::fclose(f);
}

inline std::vector<uint8_t> readFile(const std::string& path) {
  std::vector<uint8_t> out;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    int c;
    while ((c = std::fgetc(f)) != EOF) out.push_back(uint8_t(c));
    std::fclose(f);
  }
  return out;
}

inline std::vector<uint8_t> bytesOf(const std::string& s) {
  return {s.begin(), s.end()};
}

inline std::vector<uint8_t> randomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = uint8_t(rng());
  return v;
}

// Every plane's bytes, in plane order.
inline std::vector<uint8_t> frameBytes(const Frame& f) {
  std::vector<uint8_t> out;
  for (int i = 0; i < f.plane_count; ++i)
    out.insert(out.end(), f.planes[i].data, f.planes[i].data + f.planes[i].size);
  return out;
}

}  // namespace esf::test
