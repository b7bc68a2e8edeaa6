#pragma once
// The RGBA8 working image in CPU memory: rows packed, 4 bytes per pixel, R G B A in memory.
// Every stage's CPU reference works on this; the GPU side is GpuImage (gpu_image.hpp).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace esf {

struct RgbaImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> pixels;  // width * height * 4 bytes

  RgbaImage() = default;
  RgbaImage(int w, int h) : width(w), height(h), pixels(size_t(w) * size_t(h) * 4, 0) {}

  size_t pixelCount() const { return size_t(width) * size_t(height); }
  uint8_t* at(int x, int y) { return &pixels[(size_t(y) * size_t(width) + size_t(x)) * 4]; }
  const uint8_t* at(int x, int y) const {
    return &pixels[(size_t(y) * size_t(width) + size_t(x)) * 4];
  }
  bool operator==(const RgbaImage&) const = default;
};

}  // namespace esf
