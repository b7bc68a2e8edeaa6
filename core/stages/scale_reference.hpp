#pragma once
// The plain CPU display scale, bit for bit what glsl_es/histogram_scale.comp writes.
#include <cstdint>
#include <vector>

#include "core/stages/scale.hpp"

namespace esf {

// num / den rounded to the nearest float32, ties to even, by integer long division
// (1 <= num, den < 2^31; den 0 gives +inf). The shader runs the same algorithm.
float exactQuotient(uint32_t num, uint32_t den);
// Over a histogram's counts (bins * channels, interleaved per bin).
std::vector<ChannelScale> scaleReference(const std::vector<uint32_t>& counts, int bins,
                                         int channels, uint64_t pixels);

}  // namespace esf
