#pragma once
// The CPU executor's vector loops (Google Highway, one binary for SSE4/AVX2/AVX-512 on x86 and
// NEON on ARM, chosen at run time). Each is an exact integer computation: the same result on
// every target as the scalar formula in its comment.
#include <cstdint>

#include "core/import/import_reference.hpp"

namespace esf::simd {

// rgba[4x..4x+3] = yuvToRgb(k, y[x], cb[x], cr[x]), 255 for x in [0, n).
void yuvRowToRgba(const YuvCoefficients& k, const uint8_t* y, const uint8_t* cb, const uint8_t* cr,
                  int n, uint8_t* rgba);

// sums[i] += uint32_t(add[i]) - uint32_t(sub[i]) for i in [0, n) (a sliding window's step).
void slideSums(uint32_t* sums, const uint8_t* add, const uint8_t* sub, int n);
// sums[i] += uint32_t(add[i]) for i in [0, n).
void addBytes(uint32_t* sums, const uint8_t* add, int n);
// acc[i] += weight * row[i] for i in [0, n).
void addWeighted(uint32_t* acc, const uint32_t* row, uint32_t weight, int n);
// out[i] = (sums[i] + divisor / 2) / divisor for i in [0, n); each sums[i] <= 255 * divisor.
void divideRounded(const uint32_t* sums, uint32_t divisor, int n, uint8_t* out);

}  // namespace esf::simd
