#include "core/stages/reduce_reference.hpp"

#include <algorithm>

namespace esf {

std::vector<ChannelReduce> reduceReference(const RgbaImage& image, std::string_view channels,
                                           LumaWeights luma) {
  std::vector<ChannelReduce> out(channels.size(), ChannelReduce{0xffffffffu, 0, 0});
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      for (size_t c = 0; c < channels.size(); ++c) {
        uint32_t v = channelValue(channels[c], image.at(x, y), luma);
        out[c].min = std::min(out[c].min, v);
        out[c].max = std::max(out[c].max, v);
        out[c].sum += v;
      }
    }
  }
  return out;
}

}  // namespace esf
