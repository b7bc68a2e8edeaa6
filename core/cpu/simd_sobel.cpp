// Compiled once per Highway target (foreach_target.h re-includes this file); the exported
// wrappers at the bottom pick the best target the CPU has on the first call.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/cpu/simd_sobel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// clang-format: the Highway includes must stay in this order.
#include <hwy/highway.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

#include "core/cpu/simd_sobel.hpp"
#include "core/stats/health_figures.hpp"

#ifndef ESF_CORE_CPU_SIMD_SOBEL_ONCE
#define ESF_CORE_CPU_SIMD_SOBEL_ONCE
namespace esf::simd {
// sobelRoot(m) for the magnitudes below 65536 (|g| < 256): a lookup for a vector of them instead
// of square roots. A camera's sensor noise sends a lane past a smaller table far more often than
// the share of such lanes suggests, as one lane takes the whole vector: on a noisy 1080p picture
// 2.4% of the lanes are past 4096 but 15% of the 16-lane vectors have one, past 65536 0.1% and
// 0.8%, so the rows are much faster with this table than with a 4096-entry one
// (bench/results/xeon-2core-cpu-health.md). Most lookups stay in the table's first entries;
// q <= 256 * 65536 fits i32.
constexpr int kSmallMagnitudes = 65536;
inline const int32_t* smallRoots() {
  static const std::vector<int32_t> table = [] {
    std::vector<int32_t> q(kSmallMagnitudes);
    for (uint32_t m = 0; m < uint32_t(kSmallMagnitudes); ++m) q[m] = int32_t(sobelRoot(m));
    return q;
  }();
  return table.data();
}
}  // namespace esf::simd
#endif

HWY_BEFORE_NAMESPACE();
namespace esf::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The single-lane target has no halves of a vector: the scalar loops do it all there.
#undef ESF_SOBEL_HALVES
#if HWY_TARGET != HWY_SCALAR
#define ESF_SOBEL_HALVES 1
#else
#define ESF_SOBEL_HALVES 0
#endif

#if ESF_SOBEL_HALVES
// The two halves of v widened to DW's lanes and added: lane i is v[i] + v[i + N/2].
template <class DW, class V>
HWY_INLINE hn::Vec<DW> AddWidenedHalves(DW dw, V v) {
  const hn::Half<hn::DFromV<V>> dh;
  return hn::Add(hn::PromoteTo(dw, hn::LowerHalf(dh, v)), hn::PromoteTo(dw, hn::UpperHalf(dh, v)));
}
#endif

#if ESF_SOBEL_HALVES
// From q1, within one of q = sobelRoot(m) (i32 lanes), to q and e = q^2 - 2^32 m: e1 = q1^2 -
// 2^32 m is q1^2 modulo 2^32, exact in i32 as |e1| < 2^31; q is the q1 with -q1 <= e1 < q1 (and
// 0 for m = 0), and (q1 -+ 1)^2 = q1^2 -+ (2 q1 -+ 1).
template <class D32>
HWY_INLINE void FixRoot(D32 d32, hn::Vec<D32> q1, hn::Vec<D32>& q, hn::Vec<D32>& e) {
  const auto one = hn::Set(d32, 1);
  const auto e1 = hn::Mul(q1, q1);
  const auto two_q1 = hn::Add(q1, q1);
  // All ones where q1 is one too big (e1 >= q1 > 0) or one too small (e1 < -q1).
  const auto too_big =
      hn::VecFromMask(d32, hn::And(hn::Gt(e1, hn::Sub(q1, one)), hn::Gt(q1, hn::Zero(d32))));
  const auto too_small = hn::VecFromMask(d32, hn::Lt(e1, hn::Neg(q1)));
  q = hn::Sub(hn::Add(q1, too_big), too_small);
  e = hn::Add(hn::Sub(e1, hn::And(too_big, hn::Sub(two_q1, one))),
              hn::And(too_small, hn::Add(two_q1, one)));
}

// q = sobelRoot(m) and e = q^2 - 2^32 m for i32 lanes m in [0, 2080800] from a float root: a
// float lane per pixel, where doubles would take two, and a float square root costs less than a
// double one. Equal to sobelRoot for every m (the tests check each one).
template <class D32>
HWY_INLINE void IntRoot(D32 d32, hn::Vec<D32> m, hn::Vec<D32>& q, hn::Vec<D32>& e) {
  const hn::Rebind<float, D32> df;
  const auto mf = hn::ConvertTo(df, m);
#if HWY_NATIVE_FMA && HWY_ARCH_X86
  // No square root instruction: they hold the divider, which the double roots want too. x86's
  // reciprocal square root estimate y is within 1.5 * 2^-12 of 1 / sqrt(m) (ARM's within 2^-8,
  // too coarse for this). One Newton step s = s0 + r0 y / 2 from s0 = m y leaves s within a few
  // ulps of sqrt(m); then, with r = m - s^2 from a fused multiply-add, 65536 sqrt(m) =
  // 65536 s + 32768 r / s + O(2^-20), and y stands for 1 / s (32768 r y: |.| < 32, so y's error
  // adds under 0.02). The two terms rounded each give q within one.
  const auto y = hn::ApproximateReciprocalSqrt(hn::Max(mf, hn::Set(df, 1.0f)));
  const auto s0 = hn::Mul(mf, y);
  const auto s = hn::MulAdd(hn::Mul(hn::NegMulAdd(s0, s0, mf), hn::Set(df, 0.5f)), y, s0);
  const auto r = hn::NegMulAdd(s, s, mf);
  const auto q1 = hn::Add(hn::NearestInt(hn::Mul(s, hn::Set(df, 65536.0f))),
                          hn::NearestInt(hn::Mul(r, hn::Mul(y, hn::Set(df, 32768.0f)))));
#elif HWY_NATIVE_FMA
  // With s the float root, 65536 sqrt(m) = 65536 s + 32768 r / s + O(2^-23), where r = m - s^2
  // is exact from a fused multiply-add (the remainder of a rounded square root is a float). The
  // two terms rounded each (the second, |.| <= 4, from an approximate reciprocal) give q within
  // one.
  const auto s = hn::Sqrt(mf);
  const auto r = hn::NegMulAdd(s, s, mf);
  const auto scaled_s = hn::Mul(hn::Max(s, hn::Set(df, 1.0f)), hn::Set(df, 1.0f / 32768));
  const auto q1 = hn::Add(hn::NearestInt(hn::Mul(s, hn::Set(df, 65536.0f))),
                          hn::NearestInt(hn::Mul(r, hn::ApproximateReciprocal(scaled_s))));
#else
  const auto s = hn::Sqrt(mf);
  // Without a fused multiply-add the remainder is not exact: q0 = round(65536 s) is within 5 of
  // q (s carries 24 bits), e0 = q0^2 - 2^32 m exact as above, and a Newton step
  // q1 = q0 - e0 / 2 q0 in floats lands within one.
  const auto q0 = hn::NearestInt(hn::Mul(s, hn::Set(df, 65536.0f)));
  const auto two_q0 = hn::ConvertTo(df, hn::Max(hn::Add(q0, q0), hn::Set(d32, 1)));
  const auto q1 = hn::Add(q0, hn::NearestInt(hn::Mul(hn::ConvertTo(df, hn::Neg(hn::Mul(q0, q0))),
                                                     hn::ApproximateReciprocal(two_q0))));
#endif
  FixRoot(d32, q1, q, e);
}

// sobelRoot(m) of a vector of magnitudes below kSmallMagnitudes, from the table. e = q^2 - 2^32 m
// is q^2 modulo 2^32 and |e| <= q < 2^25: the low half of q * q.
template <class D32>
HWY_INLINE void SmallRoot(D32 d32, hn::Vec<D32> m, const int32_t* small_roots, hn::Vec<D32>& q,
                          hn::Vec<D32>& e) {
  q = hn::GatherIndex(d32, small_roots, m);
  e = hn::Mul(q, q);
}

#if HWY_HAVE_FLOAT64
// round(65536 sqrt(m)) in double lanes: sqrt(2^32 m) = 65536 sqrt(m) exactly (the scaling is a
// power of four and the square root is correctly rounded), and round-to-nearest of it equals
// sobelRoot for every m in [0, 2080800] (the tests check each one).
// e = q^2 - 2^32 m beside it, from one fused multiply-subtract: q^2 < 2^53 and 2^32 m < 2^53,
// so the difference is exact.
template <class DF>
HWY_INLINE void DoubleRoot(DF df, hn::Vec<DF> m, hn::Vec<DF>& q, hn::Vec<DF>& e) {
  const auto scaled = hn::Mul(m, hn::Set(df, 4294967296.0));
  q = hn::Round(hn::Sqrt(scaled));
  e = hn::MulSub(q, q, scaled);
}
#endif

// A row's Sobel sums in vector lanes. m, q and e are added in i32 lanes for at most
// kVectorsPerFlush vectors (q < 2^27, |e| <= q and m < 2^21: 16 of each fit), then into i64
// lanes; roots taken in doubles are added in double lanes (exact: a row's sums stay far below
// 2^53). The lanes are locals of the caller, passed by reference to plain inlined functions: SVE
// vectors cannot be members of a struct, and lambdas capturing them made GCC keep them in memory
// (a store and a load on every add).
constexpr int kVectorsPerFlush = 16;
constexpr bool kAlternateRoots = HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL;
template <class D32>
struct SobelLaneRefs {
  using D64 = hn::Repartition<int64_t, D32>;
  hn::Vec<D32>&m, &q, &e;
  hn::Vec<D64>&wide_m, &wide_q, &wide_e;
#if HWY_HAVE_FLOAT64
  using DF = hn::Repartition<double, D32>;
  hn::Vec<DF>&double_q, &double_e;
  bool& in_doubles;  // where the next vector of large magnitudes goes
#endif
};

#if HWY_HAVE_FLOAT64
// Half a vector of magnitudes, in double lanes, into the lanes.
template <class DF, class D32>
HWY_INLINE void AddHalfRootsInDoubles(DF df, hn::Vec<DF> m, SobelLaneRefs<D32> lanes) {
  auto q = hn::Zero(df), e = hn::Zero(df);
  DoubleRoot(df, m, q, e);
  lanes.double_q = hn::Add(lanes.double_q, q);
  lanes.double_e = hn::Add(lanes.double_e, e);
}

// A vector of magnitudes, a half at a time in double lanes, into the lanes.
template <class D32>
HWY_INLINE void AddRootsInDoubles(D32, hn::Vec<D32> m, SobelLaneRefs<D32> lanes) {
  const typename SobelLaneRefs<D32>::DF df;
  const hn::Half<D32> dh32;
  AddHalfRootsInDoubles(df, hn::PromoteTo(df, hn::LowerHalf(dh32, m)), lanes);
  AddHalfRootsInDoubles(df, hn::PromoteTo(df, hn::UpperHalf(dh32, m)), lanes);
}
#endif

// One vector of magnitudes into the lanes, the roots taken SobelRootWay::kDoubles's way or
// kTable's.
template <bool kAllDoubles, class D32>
HWY_INLINE void AddMagnitudes(D32 d32, hn::Vec<D32> m, const int32_t* small_roots,
                              SobelLaneRefs<D32> lanes) {
  lanes.m = hn::Add(lanes.m, m);
  auto q = hn::Zero(d32), e = hn::Zero(d32);
#if HWY_HAVE_FLOAT64
  if (kAllDoubles) {
    AddRootsInDoubles(d32, m, lanes);
    return;
  }
#endif
  if (hn::AllTrue(d32, hn::Lt(m, hn::Set(d32, kSmallMagnitudes)))) {
    SmallRoot(d32, m, small_roots, q, e);
  } else {
#if HWY_HAVE_FLOAT64
    // In doubles where there are doubles: their square roots take the divider, IntRoot the
    // vector ALUs. With AVX-512, every other vector goes to IntRoot, which keeps both busy and
    // beat both all in doubles and all in IntRoot on a Xeon; with AVX2 and SSE4 alternating
    // was slower (bench/results/xeon-2core-cpu-health.md).
    if (!kAlternateRoots || (lanes.in_doubles = !lanes.in_doubles)) {
      AddRootsInDoubles(d32, m, lanes);
      return;
    }
#endif
    IntRoot(d32, m, q, e);
  }
  lanes.q = hn::Add(lanes.q, q);
  lanes.e = hn::Add(lanes.e, e);
}

template <class D32>
HWY_INLINE void FlushLanes(D32 d32, SobelLaneRefs<D32> lanes) {
  const typename SobelLaneRefs<D32>::D64 d64;
  lanes.wide_m = hn::Add(lanes.wide_m, AddWidenedHalves(d64, lanes.m));
  lanes.wide_q = hn::Add(lanes.wide_q, AddWidenedHalves(d64, lanes.q));
  lanes.wide_e = hn::Add(lanes.wide_e, AddWidenedHalves(d64, lanes.e));
  lanes.m = lanes.q = lanes.e = hn::Zero(d32);
}

template <class D32>
HWY_INLINE void AddLanes(D32 d32, SobelLaneRefs<D32> lanes, SobelRowSums& sums) {
  FlushLanes(d32, lanes);
  const typename SobelLaneRefs<D32>::D64 d64;
  sums.squares += uint64_t(hn::GetLane(hn::SumOfLanes(d64, lanes.wide_m)));
  sums.roots += uint64_t(hn::GetLane(hn::SumOfLanes(d64, lanes.wide_q)));
  sums.root_square_excess += hn::GetLane(hn::SumOfLanes(d64, lanes.wide_e));
#if HWY_HAVE_FLOAT64
  const typename SobelLaneRefs<D32>::DF df;
  sums.roots += uint64_t(hn::GetLane(hn::SumOfLanes(df, lanes.double_q)));
  sums.root_square_excess += int64_t(hn::GetLane(hn::SumOfLanes(df, lanes.double_e)));
#endif
}
#endif

// gx and gy of the 3x3 Sobel windows centred on pixels x.. of the row `at`, in lanes of D (16-bit
// lanes hold them: |g| <= 1020).
template <class D>
HWY_INLINE void SobelGradients(D d, const uint8_t* above, const uint8_t* at, const uint8_t* below,
                               int x, hn::Vec<D>& gx, hn::Vec<D>& gy) {
  const hn::Rebind<uint8_t, D> d8;
  auto load = [&](const uint8_t* row) { return hn::PromoteTo(d, hn::LoadU(d8, row)); };
  const auto a0 = load(above + x - 1), a2 = load(above + x + 1);
  const auto b0 = load(below + x - 1), b2 = load(below + x + 1);
  const auto c0 = load(at + x - 1), c2 = load(at + x + 1);
  const auto d1 = hn::Sub(load(above + x), load(below + x));
  gx = hn::Sub(hn::Add(hn::Add(a0, b0), hn::ShiftLeft<1>(c0)),
               hn::Add(hn::Add(a2, b2), hn::ShiftLeft<1>(c2)));
  gy = hn::Add(hn::Add(hn::Sub(a0, b0), hn::Sub(a2, b2)), hn::ShiftLeft<1>(d1));
}

#if ESF_SOBEL_HALVES
// m = gx^2 + gy^2 of a vector of 16-bit gradients into the lanes (in an order of their own), by
// pairwise multiply-adds of (gx, gy) interleaved: lane i of each is pairs[2i]^2 + pairs[2i + 1]^2.
template <bool kAllDoubles, class D16, class D32>
HWY_INLINE void AddGradients(D16 d16, D32 d32, hn::Vec<D16> gx, hn::Vec<D16> gy,
                             const int32_t* small_roots, SobelLaneRefs<D32> lanes) {
  // Flat: m = 0 and q = 0 add nothing. One test of the gradients, where a test of each vector
  // of magnitudes took as long as the roots it saved on a camera's picture.
  if (hn::AllTrue(d16, hn::Eq(hn::Or(gx, gy), hn::Zero(d16)))) return;
  const auto low = hn::InterleaveLower(d16, gx, gy), high = hn::InterleaveUpper(d16, gx, gy);
  auto odd = hn::Zero(d32);
  auto even = hn::ReorderWidenMulAccumulate(d32, low, low, hn::Zero(d32), odd);
  AddMagnitudes<kAllDoubles>(d32, hn::RearrangeToOddPlusEven(even, odd), small_roots, lanes);
  odd = hn::Zero(d32);
  even = hn::ReorderWidenMulAccumulate(d32, high, high, hn::Zero(d32), odd);
  AddMagnitudes<kAllDoubles>(d32, hn::RearrangeToOddPlusEven(even, odd), small_roots, lanes);
}
#endif

// The windows centred on `at` from pixel x on, plainly.
void SobelRowPlain(const uint8_t* above, const uint8_t* at, const uint8_t* below, int x, int n,
                   SobelRowSums& sums) {
  for (; x < n - 1; ++x) {
    const int gx = (above[x - 1] + 2 * at[x - 1] + below[x - 1]) -
                   (above[x + 1] + 2 * at[x + 1] + below[x + 1]);
    const int gy =
        (above[x - 1] - below[x - 1]) + 2 * (above[x] - below[x]) + (above[x + 1] - below[x + 1]);
    const uint32_t m = uint32_t(gx * gx + gy * gy);
    const uint64_t q = sobelRoot(m);
    sums.squares += m;
    sums.roots += q;
    sums.root_square_excess += int64_t(q * q) - int64_t(uint64_t(m) << 32);
  }
}

template <bool kAllDoubles>
void SobelRowSegmentsOneWay(const uint8_t* above, const uint8_t* at, const uint8_t* below,
                            const int* cuts, int cut_count, uint64_t* segment_squares,
                            SobelRowSums& sums) {
#if ESF_SOBEL_HALVES
  const hn::ScalableTag<int32_t> d32;
  const hn::Repartition<int64_t, decltype(d32)> d64;
  const int32_t* small_roots = smallRoots();
  auto sum_m = hn::Zero(d32), sum_q = sum_m, sum_e = sum_m;
  auto wide_m = hn::Zero(d64), wide_q = wide_m, wide_e = wide_m;
#if HWY_HAVE_FLOAT64
  const hn::Repartition<double, decltype(d32)> df;
  auto double_q = hn::Zero(df), double_e = double_q;
  bool in_doubles = false;
  const SobelLaneRefs<hn::ScalableTag<int32_t>> sobel{sum_m,  sum_q,    sum_e,    wide_m,    wide_q,
                                                      wide_e, double_q, double_e, in_doubles};
#else
  const SobelLaneRefs<hn::ScalableTag<int32_t>> sobel{sum_m, sum_q, sum_e, wide_m, wide_q, wide_e};
#endif
  int in_flush = 0;
  // The order of the pixels within a segment does not matter to its sums: gx and gy of twice the
  // pixels in 16-bit lanes (|g| <= 1020), then their magnitudes: half the loads and the
  // arithmetic of 32-bit lanes.
  const hn::Repartition<int16_t, decltype(d32)> d16;
  const int wide = int(hn::Lanes(d16));
  uint64_t squares_before = 0;  // the 64-bit lanes' sum m when the segment starts
  for (int k = 0; k + 1 < cut_count; ++k) {
    const int end = cuts[k + 1];
    int x = cuts[k];
    SobelRowSums plain;
    for (; x + wide <= end; x += wide) {
      auto gx = hn::Zero(d16), gy = hn::Zero(d16);
      SobelGradients(d16, above, at, below, x, gx, gy);
      AddGradients<kAllDoubles>(d16, d32, gx, gy, small_roots, sobel);
      if ((in_flush += 2) >= kVectorsPerFlush) {
        FlushLanes(d32, sobel);
        in_flush = 0;
      }
    }
    // The segment's last pixels as the vector of windows ending with it, the pixels before them
    // (this segment's or earlier ones') set to gx = gy = 0, which adds nothing. The plain loop,
    // a root per pixel, only where no such vector fits: the last 14 pixels of each 1080p row
    // in it cost a tenth of the rows' time.
    if (const int last = end - wide; x < end && last >= 1) {
      auto gx = hn::Zero(d16), gy = hn::Zero(d16);
      SobelGradients(d16, above, at, below, last, gx, gy);
      const auto added = hn::FirstN(d16, size_t(x - last));
      AddGradients<kAllDoubles>(d16, d32, hn::IfThenZeroElse(added, gx),
                                hn::IfThenZeroElse(added, gy), small_roots, sobel);
      if ((in_flush += 2) >= kVectorsPerFlush) {
        FlushLanes(d32, sobel);
        in_flush = 0;
      }
    } else if (x < end) {
      SobelRowPlain(above, at, below, x, end + 1, plain);
    }
    sums.squares += plain.squares;
    sums.roots += plain.roots;
    sums.root_square_excess += plain.root_square_excess;
    if (!segment_squares) continue;
    FlushLanes(d32, sobel);
    in_flush = 0;
    const uint64_t squares_after = uint64_t(hn::GetLane(hn::SumOfLanes(d64, wide_m)));
    segment_squares[k] = squares_after - squares_before + plain.squares;
    squares_before = squares_after;
  }
  AddLanes(d32, sobel, sums);
#else
  for (int k = 0; k + 1 < cut_count; ++k) {
    SobelRowSums plain;
    SobelRowPlain(above, at, below, cuts[k], cuts[k + 1] + 1, plain);
    if (segment_squares) segment_squares[k] = plain.squares;
    sums.squares += plain.squares;
    sums.roots += plain.roots;
    sums.root_square_excess += plain.root_square_excess;
  }
#endif
}

void SobelRowSegments(const uint8_t* above, const uint8_t* at, const uint8_t* below,
                      const int* cuts, int cut_count, uint64_t* segment_squares, SobelRootWay way,
                      SobelRowSums& sums) {
  if (way == SobelRootWay::kDoubles)
    SobelRowSegmentsOneWay<true>(above, at, below, cuts, cut_count, segment_squares, sums);
  else
    SobelRowSegmentsOneWay<false>(above, at, below, cuts, cut_count, segment_squares, sums);
}

// One segment, the row's interior.
void SobelRow(const uint8_t* above, const uint8_t* at, const uint8_t* below, int n,
              SobelRootWay way, SobelRowSums& sums) {
  const int cuts[] = {1, n - 1};
  if (n >= 3) SobelRowSegments(above, at, below, cuts, 2, nullptr, way, sums);
}

// Whether SobelRootWay::kDoubles differs from kTable on this target.
bool HasDoubleRoots() {
  return ESF_SOBEL_HALVES && HWY_HAVE_FLOAT64;
}

void SobelRoots(const uint32_t* m, int n, bool in_doubles, uint32_t* q, int32_t* excess) {
  int i = 0;
#if ESF_SOBEL_HALVES && HWY_HAVE_FLOAT64
  if (in_doubles) {
    const hn::ScalableTag<double> df;
    const hn::Rebind<int32_t, decltype(df)> d32;
    const int lanes = int(hn::Lanes(df));
    for (; i + lanes <= n; i += lanes) {
      auto root = hn::Zero(df), e = hn::Zero(df);
      DoubleRoot(df, hn::PromoteTo(df, hn::LoadU(d32, reinterpret_cast<const int32_t*>(m + i))),
                 root, e);
      hn::StoreU(hn::DemoteTo(d32, root), d32, reinterpret_cast<int32_t*>(q + i));
      hn::StoreU(hn::DemoteTo(d32, e), d32, excess + i);
    }
  }
#else
  (void)in_doubles;
#endif
#if ESF_SOBEL_HALVES
  const hn::ScalableTag<int32_t> d32;
  const int lanes = int(hn::Lanes(d32));
  for (; i + lanes <= n; i += lanes) {
    auto root = hn::Zero(d32), e = hn::Zero(d32);
    IntRoot(d32, hn::LoadU(d32, reinterpret_cast<const int32_t*>(m + i)), root, e);
    hn::StoreU(root, d32, reinterpret_cast<int32_t*>(q + i));
    hn::StoreU(e, d32, excess + i);
  }
#endif
  for (; i < n; ++i) {
    q[i] = sobelRoot(m[i]);
    excess[i] = int32_t(int64_t(uint64_t(q[i]) * q[i]) - int64_t(uint64_t(m[i]) << 32));
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace esf::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace esf::simd {

HWY_EXPORT(SobelRow);
HWY_EXPORT(SobelRowSegments);
HWY_EXPORT(SobelRoots);
HWY_EXPORT(HasDoubleRoots);

void sobelRow(const uint8_t* above, const uint8_t* at, const uint8_t* below, int n,
              SobelRootWay way, SobelRowSums& sums) {
  HWY_DYNAMIC_DISPATCH(SobelRow)(above, at, below, n, way, sums);
}

void sobelRowSegments(const uint8_t* above, const uint8_t* at, const uint8_t* below,
                      const int* cuts, int cut_count, uint64_t* segment_squares, SobelRootWay way,
                      SobelRowSums& sums) {
  HWY_DYNAMIC_DISPATCH(SobelRowSegments)
  (above, at, below, cuts, cut_count, segment_squares, way, sums);
}

SobelRootWay fastestSobelRootWay() {
  static const SobelRootWay fastest = [] {
    if (!HWY_DYNAMIC_DISPATCH(HasDoubleRoots)()) return SobelRootWay::kTable;
    // A camera-like strip: a ramp with noise (most magnitudes within the table, some past it)
    // and a few hard edges, 16 rows of 1920 pixels: tens of microseconds a way.
    constexpr int kWidth = 1920, kRows = 18;
    std::vector<uint8_t> strip(size_t(kWidth) * kRows);
    uint32_t state = 2463534242u;
    for (size_t i = 0; i < strip.size(); ++i) {
      state ^= state << 13, state ^= state >> 17, state ^= state << 5;
      const int x = int(i % kWidth);
      strip[i] = uint8_t(40 + x / 16 + int(state % 24) + (x % 256 < 8 ? 100 : 0));
    }
    auto time = [&](SobelRootWay way) {
      const auto start = std::chrono::steady_clock::now();
      SobelRowSums sums;
      for (int y = 1; y + 1 < kRows; ++y) {
        const uint8_t* above = strip.data() + size_t(y - 1) * kWidth;
        sobelRow(above, above + kWidth, above + 2 * kWidth, kWidth, way, sums);
      }
      return std::chrono::steady_clock::now() - start;
    };
    // The fastest of several runs of each, alternating, so that a busy moment counts for neither.
    auto table = std::chrono::steady_clock::duration::max(), doubles = table;
    for (int run = 0; run < 7; ++run) {
      table = std::min(table, time(SobelRootWay::kTable));
      doubles = std::min(doubles, time(SobelRootWay::kDoubles));
    }
    return doubles < table ? SobelRootWay::kDoubles : SobelRootWay::kTable;
  }();
  return fastest;
}

void sobelRoots(const uint32_t* m, int n, bool in_doubles, uint32_t* q, int32_t* excess) {
  HWY_DYNAMIC_DISPATCH(SobelRoots)(m, n, in_doubles, q, excess);
}

}  // namespace esf::simd
#endif  // HWY_ONCE
