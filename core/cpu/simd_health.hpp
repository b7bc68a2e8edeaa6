#pragma once
// The frame difference stage's vector loops (Google Highway, dispatched at run time like
// simd_kernels.hpp): exact integer results, the same on every target as the scalar formula in
// each comment. The Sobel stage's are in simd_sobel.hpp.
#include <cstdint>

namespace esf::simd {

// out[i] = fullRangeLuma(in[i], false) for i in [0, n): limited-range luma stretched to 0..255.
void stretchLimitedLuma(const uint8_t* in, int n, uint8_t* out);

// Sums over x in [0, n) of |c - p|, |c - r|, fc - fp and (fc - fp)^2, with fc, fp the stretched
// c and p (the same pointers as c and p for full range). Added to the fields.
struct DifferenceRowSums {
  uint64_t sad_previous = 0, sad_reference = 0, motion_squares = 0;
  int64_t motion_sum = 0;
};
void differenceRow(const uint8_t* c, const uint8_t* p, const uint8_t* r, const uint8_t* fc,
                   const uint8_t* fp, int n, DifferenceRowSums& sums);

// A region's span of one row: adds sum c[x] to `luma` and the count of |c[x] - p[x]| >
// change_level to `changed`, x in [0, n).
void regionRowSums(const uint8_t* c, const uint8_t* p, int n, uint32_t change_level, uint64_t& luma,
                   uint64_t& changed);

}  // namespace esf::simd
