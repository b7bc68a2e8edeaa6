#pragma once
// The plain CPU histogram every strategy must equal, bit for bit. Same layout as Histogram.
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/channels.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

// counts[bin * channels.size() + c]; bin = (v * bins) >> 8.
std::vector<uint32_t> histogramReference(const RgbaImage& image, int bins,
                                         std::string_view channels, LumaWeights luma);

}  // namespace esf
