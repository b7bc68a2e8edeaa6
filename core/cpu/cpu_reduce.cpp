#include "core/cpu/cpu_reduce.hpp"

#include <algorithm>

#include "core/cpu/cpu_histogram.hpp"

namespace esf {

// min, max and sum follow from the value counts (sum = sum of v * count(v)), and counting is
// the executor's fastest pass over an image.
std::vector<ChannelReduce> reduceCpu(const RgbaImage& image, std::string_view channels,
                                     LumaWeights luma, RowPool& pool) {
  const ValueCounts values = countValues(image, ChannelSet::of(channels), luma, pool);
  std::vector<ChannelReduce> out;
  for (char letter : channels) {
    const auto& counts = values.counts[size_t(channelCode(letter))];
    ChannelReduce r{0xffffffffu, 0, 0};
    for (uint32_t v = 0; v < 256; ++v) {
      if (counts[v] == 0) continue;
      r.min = std::min(r.min, v);
      r.max = std::max(r.max, v);
      r.sum += uint64_t(v) * counts[v];
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace esf
