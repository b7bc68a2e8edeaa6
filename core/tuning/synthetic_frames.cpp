#include "core/tuning/synthetic_frames.hpp"

#include <algorithm>
#include <random>
#include <string>

#include "base/enum_names.hpp"

namespace esf {

namespace {

constexpr EnumName<FrameContent> kFrameContents[] = {
    {FrameContent::kRandom, "random"},
    {FrameContent::kFlat, "flat"},
    {FrameContent::kGradient, "gradient"},
    {FrameContent::kNatural, "natural"},
};

}  // namespace

const char* frameContentName(FrameContent c) {
  return nameIn(kFrameContents, c);
}

Result<FrameContent> parseFrameContent(std::string_view name) {
  return parseNameIn(kFrameContents, name, "frame content");
}

RgbaImage syntheticFrame(FrameContent content, int width, int height, uint32_t seed) {
  RgbaImage img(width, height);
  std::mt19937 rng(seed);
  int wd = std::max(width - 1, 1), hd = std::max(height - 1, 1);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      uint8_t* p = img.at(x, y);
      switch (content) {
        case FrameContent::kRandom: {
          uint32_t v = rng();
          p[0] = uint8_t(v), p[1] = uint8_t(v >> 8), p[2] = uint8_t(v >> 16), p[3] = 255;
          break;
        }
        case FrameContent::kFlat:
          p[0] = 40, p[1] = 40, p[2] = 40, p[3] = 255;
          break;
        case FrameContent::kGradient:
        case FrameContent::kNatural: {
          int r = 255 * x / wd, g = 255 * y / hd, b = (r + g) / 2;
          if (content == FrameContent::kNatural) {
            uint32_t v = rng();
            r += int(v & 31) - 16, g += int((v >> 5) & 31) - 16, b += int((v >> 10) & 31) - 16;
          }
          p[0] = uint8_t(std::clamp(r, 0, 255));
          p[1] = uint8_t(std::clamp(g, 0, 255));
          p[2] = uint8_t(std::clamp(b, 0, 255));
          p[3] = 255;
        }
      }
    }
  }
  return img;
}

}  // namespace esf
