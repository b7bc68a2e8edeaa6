#pragma once
// min(floor((step s + offset) / divisor), 255) for every s in [0, count): a byte table that
// stands for a division per pixel (the levels and bins of raw sensor values), made by stepping
// the quotient and remainder instead of dividing count times.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace esf {

// divisor >= 1.
inline std::vector<uint8_t> byteQuotients(uint64_t step, uint64_t offset, uint64_t divisor,
                                          size_t count) {
  std::vector<uint8_t> table(count);
  uint64_t q = offset / divisor, r = offset % divisor;
  for (size_t s = 0; s < count; ++s) {
    table[s] = uint8_t(std::min<uint64_t>(q, 255));
    for (r += step; r >= divisor; r -= divisor) ++q;  // count + the last q steps in all
  }
  return table;
}

}  // namespace esf
