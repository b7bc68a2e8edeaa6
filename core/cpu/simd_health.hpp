#pragma once
// The frame difference stage's vector loops (Google Highway, dispatched at run time like
// simd_kernels.hpp): exact integer results, the same on every target as the scalar formula in
// each comment. The Sobel stage's are in simd_sobel.hpp.
#include <cstdint>

namespace esf::simd {

// Sums over x in [0, n) of |c - p|, |c - r|, F(c) - F(p) and (F(c) - F(p))^2, added to the
// fields. fc null: full range, F(v) = v. Else limited range, F(v) = fullRangeLuma(v, false),
// and fc[x] = F(c[x]) is written too (the Sobel rows read it).
struct DifferenceRowSums {
  uint64_t sad_previous = 0, sad_reference = 0, motion_squares = 0;
  int64_t motion_sum = 0;
};
void differenceRow(const uint8_t* c, const uint8_t* p, const uint8_t* r, int n, uint8_t* fc,
                   DifferenceRowSums& sums);

// A region's span of one row: adds sum c[x] to `luma` and the count of |c[x] - p[x]| >
// change_level to `changed`, x in [0, n).
void regionRowSums(const uint8_t* c, const uint8_t* p, int n, uint32_t change_level, uint64_t& luma,
                   uint64_t& changed);

}  // namespace esf::simd
