#pragma once
// The CPU executor's image reduce: per channel min, max and 64-bit sum, equal to
// reduceReference (core/stages/reduce_reference.hpp).
#include <string_view>
#include <vector>

#include "base/channels.hpp"
#include "core/cpu/row_pool.hpp"
#include "core/stages/reduce.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

std::vector<ChannelReduce> reduceCpu(const RgbaImage& image, std::string_view channels,
                                     LumaWeights luma, RowPool& pool);

}  // namespace esf
