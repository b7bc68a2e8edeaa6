#pragma once
// The plain CPU image reduce: per channel min, max and 64-bit sum, same order as ImageReduce.
#include <string_view>
#include <vector>

#include "base/channels.hpp"
#include "core/stages/reduce.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

std::vector<ChannelReduce> reduceReference(const RgbaImage& image, std::string_view channels,
                                           LumaWeights luma);

}  // namespace esf
