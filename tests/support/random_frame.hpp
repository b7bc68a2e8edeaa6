#pragma once
// A frame of seeded random bytes in any uncompressed format, every plane's stride padded by
// `pad` bytes: the import suites' input.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "base/pixel_format.hpp"
#include "esframe/frame.hpp"

namespace esf::test {

struct TestFrame {
  std::vector<std::vector<uint8_t>> planes;
  Frame frame;
};

const Colorimetry kColorimetries[] = {{YcbcrEncoding::kBt601, false},
                                      {YcbcrEncoding::kBt601, true},
                                      {YcbcrEncoding::kBt709, false},
                                      {YcbcrEncoding::kBt709, true}};

// The import suites' sizes: odd ones where the format allows (YUYV/UYVY need even widths).
inline std::vector<std::pair<int, int>> importSizes(PixelFormat f) {
  const bool odd_ok = allowsOddWidth(f);
  return {{odd_ok ? 1 : 2, 1},     {odd_ok ? 3 : 4, 7},
          {odd_ok ? 257 : 258, 3}, {2, 2},
          {odd_ok ? 33 : 34, 17},  {64, 48}};
}

inline TestFrame randomFrame(PixelFormat f, int w, int h, int pad, const Colorimetry& c,
                             uint32_t seed) {
  TestFrame t;
  std::mt19937 rng(seed);
  auto layout = planeLayout(f, w, h);
  EXPECT_TRUE(layout.ok());
  t.frame.format = f, t.frame.width = w, t.frame.height = h, t.frame.colorimetry = c;
  t.frame.plane_count = int(layout->size());
  t.planes.resize(layout->size());
  for (size_t i = 0; i < layout->size(); ++i) {
    const int stride = (*layout)[i].bytes_per_row + pad;
    t.planes[i].resize(size_t(stride) * (*layout)[i].rows);
    for (auto& b : t.planes[i]) b = uint8_t(rng());
    t.frame.planes[i] = FramePlane{t.planes[i].data(), t.planes[i].size(), stride};
  }
  return t;
}

}  // namespace esf::test
