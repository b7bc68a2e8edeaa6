#pragma once
// The Sobel stage's vector loops (Google Highway, dispatched at run time like simd_kernels.hpp):
// exact integer results, the same on every target as the scalar formula in each comment.
#include <cstdint>

namespace esf::simd {

// The Sobel sums of one row's interior pixels x in [1, n - 1) (n >= 3): m = gx^2 + gy^2 of the
// 3x3 window over the rows above, at and below, q = sobelRoot(m); adds sum m, sum q and
// sum (q^2 - 2^32 m) (in (-q, q], so it fits a signed sum: sum q^2 = 2^32 sum m + that).
struct SobelRowSums {
  uint64_t squares = 0, roots = 0;
  int64_t root_square_excess = 0;
};
// How the rows take the roots of their magnitudes. Both give the same sums; which is faster
// depends on the CPU's gathers and double square roots (bench/results/zen5-2core-cpu-health.md
// has the figures), so it is timed, not assumed. Where the target has no double lanes both are
// kTable.
enum class SobelRootWay {
  kTable,    // magnitudes below 65536 looked up; larger ones in double and float lanes
  kDoubles,  // every root in double lanes
};
// The faster way on this CPU, timed once (under a millisecond) on the first call.
SobelRootWay fastestSobelRootWay();

void sobelRow(const uint8_t* above, const uint8_t* at, const uint8_t* below, int n,
              SobelRootWay way, SobelRowSums& sums);

// sobelRow's sums of the pixels x in [cuts[0], cuts[cut_count - 1]) (cuts ascending, within
// [1, n - 1] for a row of n pixels; cut_count >= 2), and, where segment_squares is not null, the
// sum of m over each segment [cuts[k], cuts[k + 1]) into segment_squares[k]: the regions' sums
// of a row, without each pixel's m.
void sobelRowSegments(const uint8_t* above, const uint8_t* at, const uint8_t* below,
                      const int* cuts, int cut_count, uint64_t* segment_squares, SobelRootWay way,
                      SobelRowSums& sums);

// q[i] = sobelRoot(m[i]) and excess[i] = q[i]^2 - 2^32 m[i] for i in [0, n), each m[i] <=
// 2080800 (the largest Sobel magnitude): the roots sobelRow takes for magnitudes past its
// table, for tests. It takes them two ways where the CPU has double vector lanes: in_doubles
// picks which (elsewhere there is one way, and in_doubles does nothing).
void sobelRoots(const uint32_t* m, int n, bool in_doubles, uint32_t* q, int32_t* excess);

}  // namespace esf::simd
