#pragma once
// Loads a PNG (stb_image) as RGBA8 for pixel comparisons. Include in ONE file per test binary:
// it compiles stb_image's implementation (static functions).
#include <algorithm>
#include <string>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#pragma GCC diagnostic pop

#include "esframe/rgba_image.hpp"

namespace esf::test {

// An empty image when the file is missing or not an image.
inline RgbaImage loadPng(const std::string& path) {
  int w = 0, h = 0, n = 0;
  uint8_t* data = stbi_load(path.c_str(), &w, &h, &n, 4);
  RgbaImage img;
  if (!data) return img;
  img = RgbaImage(w, h);
  std::copy(data, data + size_t(w) * size_t(h) * 4, img.pixels.begin());
  stbi_image_free(data);
  return img;
}

}  // namespace esf::test
