#include "core/stages/histogram_reference.hpp"

namespace esf {

std::vector<uint32_t> histogramReference(const RgbaImage& image, int bins,
                                         std::string_view channels, LumaWeights luma) {
  const size_t n = channels.size();
  std::vector<uint32_t> counts(size_t(bins) * n, 0);
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const uint8_t* px = image.at(x, y);
      for (size_t c = 0; c < n; ++c) {
        uint32_t bin = (channelValue(channels[c], px, luma) * uint32_t(bins)) >> 8;
        ++counts[bin * n + c];
      }
    }
  }
  return counts;
}

}  // namespace esf
