#pragma once
// Seeded random Bayer frames and the four CFA orders: the demosaic suites' (GPU and CPU) input.
#include <cstdint>
#include <random>
#include <vector>

#include "core/stages/demosaic_reference.hpp"  // CfaOrder

namespace esf::test {

constexpr CfaOrder kCfaOrders[] = {CfaOrder::kRGGB, CfaOrder::kGRBG, CfaOrder::kGBRG,
                                   CfaOrder::kBGGR};

// w x h samples of `bits` random bits each.
inline std::vector<uint16_t> randomRaw(int w, int h, int bits, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint16_t> v(size_t(w) * size_t(h));
  for (auto& x : v) x = uint16_t(rng() & ((1u << bits) - 1));
  return v;
}

}  // namespace esf::test
