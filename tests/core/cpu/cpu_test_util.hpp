#pragma once
// Shared by the executor tests: the thread counts every stage runs with, and a poisoned image.
#include <cstdint>
#include <cstring>

#include "esframe/rgba_image.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf::test {

// 1: everything on the caller; 2: this machine's cores; 5: more bands than some images have rows.
constexpr int kThreadCounts[] = {1, 2, 5};

// A w x h image of kPoison pixels: an output pixel a stage fails to write keeps it.
inline RgbaImage poisonedImage(int w, int h) {
  RgbaImage img(w, h);
  for (size_t i = 0; i < img.pixels.size(); i += 4) std::memcpy(&img.pixels[i], &kPoison, 4);
  return img;
}

}  // namespace esf::test
