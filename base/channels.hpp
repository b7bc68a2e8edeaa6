#pragma once
// Which channels a histogram or reduce computes, and the integer luma formulas.
// A channel list is a string of distinct letters from "rgbl" in the order the results
// interleave them: "rgbl" (all four), "l", "gr"...
#include <cstdint>
#include <string>
#include <string_view>

#include "esframe/base/result.hpp"
#include "esframe/pipeline_config.hpp"  // validateChannels

namespace esf {

// Integer luma, no floating point (floats put pixels in neighbouring bins on different GPUs).
enum class LumaWeights {
  kBt709,  // L = (13933 R + 46871 G + 4732 B + 32768) >> 16   (weights sum to 65536)
  kBt601,  // L = (77 R + 150 G + 29 B + 128) >> 8               (weights sum to 256)
};

constexpr uint32_t lumaBt709(uint32_t r, uint32_t g, uint32_t b) {
  return (13933u * r + 46871u * g + 4732u * b + 32768u) >> 16;
}
constexpr uint32_t lumaBt601(uint32_t r, uint32_t g, uint32_t b) {
  return (77u * r + 150u * g + 29u * b + 128u) >> 8;
}
constexpr uint32_t luma(LumaWeights w, uint32_t r, uint32_t g, uint32_t b) {
  return w == LumaWeights::kBt709 ? lumaBt709(r, g, b) : lumaBt601(r, g, b);
}
Result<LumaWeights> parseLumaWeights(std::string_view name);  // "bt709" | "bt601"
const char* lumaWeightsName(LumaWeights w);

// Shader code of each letter (the CHANNEL0..3 defines): r=0 g=1 b=2 l=3.
int channelCode(char letter);

// The value of channel `letter` of one RGBA pixel.
inline uint32_t channelValue(char letter, const uint8_t* rgba, LumaWeights w) {
  switch (letter) {
    case 'r':
      return rgba[0];
    case 'g':
      return rgba[1];
    case 'b':
      return rgba[2];
    default:
      return luma(w, rgba[0], rgba[1], rgba[2]);
  }
}

}  // namespace esf
