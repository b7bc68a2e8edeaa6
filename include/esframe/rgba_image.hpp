#pragma once
// The RGBA8 working image in CPU memory: rows packed, 4 bytes per pixel, R G B A in memory.
// Every stage's CPU reference works on this; the GPU side is GpuImage (gpu_image.hpp).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "esframe/base/result.hpp"
#include "esframe/base/sizes.hpp"

namespace esf {

struct RgbaImage {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> pixels;  // width * height * 4 bytes

  RgbaImage() = default;
  // For sizes already within the frame limits (sizes.hpp). Outside them the byte count saturates,
  // so the allocation is refused (std::length_error) instead of wrapping to a short buffer.
  RgbaImage(int w, int h) : width(w), height(h), pixels(saturatingSize(w, h, 4), 0) {}

  // The checked way: an error (kInvalidArgument) naming `what` for a size outside the frame
  // limits, before anything is allocated.
  static Result<RgbaImage> create(int w, int h, std::string_view what) {
    if (Status s = checkFrameSize(what, w, h); !s) return s.error();
    return RgbaImage(w, h);
  }

  // Within the frame limits, so no product below overflows even a 32-bit size_t.
  size_t pixelCount() const { return size_t(width) * size_t(height); }
  uint8_t* at(int x, int y) { return &pixels[(size_t(y) * size_t(width) + size_t(x)) * 4]; }
  const uint8_t* at(int x, int y) const {
    return &pixels[(size_t(y) * size_t(width) + size_t(x)) * 4];
  }
  bool operator==(const RgbaImage&) const = default;
};

}  // namespace esf
