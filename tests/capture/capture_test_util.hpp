#pragma once
// Small helpers for the capture tests: a fresh temporary folder, whole-file writes, seeded bytes,
// a frame's planes as one byte string, and a source read to its end against the frames expected.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"
#include "esframe/source.hpp"

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

// A Y4M or raw stream's bytes, and the whole frames in it.
struct Stream {
  std::vector<uint8_t> bytes;
  std::vector<std::vector<uint8_t>> frames;
};

// Reads every frame, checks them (bytes and sequence numbers) against `expect`; returns the error
// that ended the stream as "code: message", or "" at a clean end.
inline std::string readAll(FrameSource& source, const Stream& expect) {
  for (size_t i = 0;; ++i) {
    auto f = source.next();
    if (!f) {
      EXPECT_EQ(i, expect.frames.size()) << "frames before the error";
      return std::string(errorCodeName(f.error().code)) + ": " + f.error().message;
    }
    if (!f->has_value()) {
      EXPECT_EQ(i, expect.frames.size()) << "frames before the end";
      return "";
    }
    if (i >= expect.frames.size()) {
      ADD_FAILURE() << "more frames than the stream holds";
      return "";
    }
    EXPECT_EQ((*f)->sequence, i);
    EXPECT_EQ(frameBytes(**f), expect.frames[i]) << "frame " << i;
  }
}

}  // namespace esf::test
