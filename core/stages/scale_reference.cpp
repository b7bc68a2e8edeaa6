#include "core/stages/scale_reference.hpp"

#include <algorithm>
#include <bit>

namespace esf {

float exactQuotient(uint32_t num, uint32_t den) {
  if (den == 0) return std::bit_cast<float>(0x7f800000u);
  uint32_t a = num, b = den;
  int e = 0;
  while (a < b) {
    a <<= 1;
    --e;
  }
  while (a >= 2 * b) {
    b <<= 1;
    ++e;
  }
  uint32_t q = 0;
  for (int i = 0; i < 25; ++i) {
    q <<= 1;
    if (a >= b) {
      a -= b;
      q |= 1;
    }
    a <<= 1;
  }
  uint32_t mant = q >> 1;
  if ((q & 1) && (a != 0 || (mant & 1))) ++mant;
  if (mant == (1u << 24)) {
    mant >>= 1;
    ++e;
  }
  return std::bit_cast<float>((uint32_t(e + 127) << 23) | (mant & 0x7fffffu));
}

std::vector<ChannelScale> scaleReference(const std::vector<uint32_t>& counts, int bins,
                                         int channels, uint64_t pixels) {
  std::vector<ChannelScale> out;
  for (int k = 0; k < channels; ++k) {
    uint32_t m = 0;
    for (int b = 0; b < bins; ++b) m = std::max(m, counts[size_t(b * channels + k)]);
    // max(1 / m, 0.2 * bins / pixels) = bins / min(m * bins, 5 * pixels)
    uint64_t den = std::min(uint64_t(m) * uint64_t(bins), 5 * pixels);
    out.push_back({m, uint32_t(bins), uint32_t(den), exactQuotient(uint32_t(bins), uint32_t(den))});
  }
  return out;
}

}  // namespace esf
