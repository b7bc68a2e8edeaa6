// Compiled once per Highway target (foreach_target.h re-includes this file); the exported
// wrappers at the bottom pick the best target the CPU has on the first call.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/cpu/simd_health.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// clang-format: the Highway includes must stay in this order.
#include <hwy/highway.h>

#include <algorithm>
#include <cstdlib>

#include "core/cpu/simd_health.hpp"
#include "core/stats/health_figures.hpp"

HWY_BEFORE_NAMESPACE();
namespace esf::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The single-lane target has no halves of a vector: the scalar loops do it all there.
#undef ESF_HEALTH_HALVES
#if HWY_TARGET != HWY_SCALAR
#define ESF_HEALTH_HALVES 1
#else
#define ESF_HEALTH_HALVES 0
#endif

#if ESF_HEALTH_HALVES
// |a - b| of u8 lanes.
template <class V>
HWY_INLINE V AbsDiffU8(V a, V b) {
  return hn::Or(hn::SaturatedSub(a, b), hn::SaturatedSub(b, a));
}

// fullRangeLuma(v, false) of u8 lanes: 255 c / 219 with c = min(v, 235) -sat 16 in [0, 219] is
// (8 c * 9539) >> 16 there (the tests check all 256 values), in 16-bit lanes: the even and the
// odd bytes each times 8 in place of the lane, then the high halves of their products.
template <class D8>
HWY_INLINE hn::Vec<D8> StretchLimited(D8 d8, hn::Vec<D8> v) {
  const hn::Repartition<uint16_t, D8> d16;
  const auto c = hn::BitCast(d16, hn::SaturatedSub(hn::Min(v, hn::Set(d8, 235)), hn::Set(d8, 16)));
  const auto byte_times_8 = hn::Set(d16, 0x07f8), by = hn::Set(d16, 9539);
  const auto even = hn::MulHigh(hn::And(hn::ShiftLeft<3>(c), byte_times_8), by);
  const auto odd = hn::MulHigh(hn::And(hn::ShiftRight<5>(c), byte_times_8), by);
  return hn::BitCast(d8, hn::Or(even, hn::ShiftLeft<8>(odd)));
}
#endif

// kSameReference: r is p (no frozen frame held), so sum |c - r| is sum |c - p|. kFullRange: the
// motion is c - p, the |c - p| already at hand; else F(c) - F(p), F(c) stored to fc for the
// Sobel rows and F(p) made again in the lanes, where reading a stretched copy of the previous
// plane cost more (it is rarely in cache). Most frames have kSameReference.
template <bool kSameReference, bool kFullRange>
void DifferenceRowOf(const uint8_t* c, const uint8_t* p, const uint8_t* r, int n, uint8_t* fc,
                     DifferenceRowSums& sums) {
  int x = 0;
#if ESF_HEALTH_HALVES
  const hn::ScalableTag<uint8_t> d8;
  const hn::Repartition<uint16_t, decltype(d8)> du16;
  const hn::Repartition<int16_t, decltype(d8)> d16;
  const hn::Repartition<int32_t, decltype(d8)> d32;
  const auto low_byte = hn::Set(du16, 0xff);
  const hn::Repartition<uint64_t, decltype(d8)> d64;
  const int lanes = int(hn::Lanes(d8));
  // The motion fc - fp as its two saturated halves, up = fc -sat fp and down = fp -sat fc: its
  // sum is sum up - sum down, its magnitude up | down, and for full range sum |c - p| is
  // sum up + sum down: two byte sums a step where the sums of fc, fp and |c - p| took three.
  auto sad_p = hn::Zero(d64), sad_r = sad_p, sum_up = sad_p, sum_down = sad_p;
  // The squares' i32 lanes take at most 4 squares (<= 65025 each) a step: 2048 steps stay
  // under 2^31 in sq0 + sq1, then they join the 64-bit sum.
  constexpr int kStepsPerChunk = 2048;
  while (x + lanes <= n) {
    auto sq0 = hn::Zero(d32), sq1 = hn::Zero(d32);
    for (int step = 0; step < kStepsPerChunk && x + lanes <= n; ++step, x += lanes) {
      const auto vc = hn::LoadU(d8, c + x), vp = hn::LoadU(d8, p + x);
      if constexpr (!kSameReference)
        sad_r = hn::Add(sad_r, hn::SumsOf8(AbsDiffU8(vc, hn::LoadU(d8, r + x))));
      auto vfc = vc, vfp = vp;
      if constexpr (!kFullRange) {
        sad_p = hn::Add(sad_p, hn::SumsOf8(AbsDiffU8(vc, vp)));
        vfc = StretchLimited(d8, vc);
        vfp = StretchLimited(d8, vp);
        hn::StoreU(vfc, d8, fc + x);
      }
      const auto up = hn::SaturatedSub(vfc, vfp), down = hn::SaturatedSub(vfp, vfc);
      sum_up = hn::Add(sum_up, hn::SumsOf8(up));
      sum_down = hn::Add(sum_down, hn::SumsOf8(down));
      // The magnitude's even and odd bytes in 16-bit lanes (the order of the squares does not
      // matter): a mask and a shift, where widening the two halves took three operations.
      const auto motion = hn::BitCast(du16, hn::Or(up, down));
      const auto even = hn::BitCast(d16, hn::And(motion, low_byte));
      const auto odd = hn::BitCast(d16, hn::ShiftRight<8>(motion));
      sq0 = hn::ReorderWidenMulAccumulate(d32, even, even, sq0, sq1);
      sq0 = hn::ReorderWidenMulAccumulate(d32, odd, odd, sq0, sq1);
    }
    HWY_ALIGN int32_t squares[HWY_MAX_BYTES / sizeof(int32_t)];
    hn::Store(hn::Add(sq0, sq1), d32, squares);
    for (size_t i = 0; i < hn::Lanes(d32); ++i) sums.motion_squares += uint32_t(squares[i]);
  }
  const uint64_t up_total = hn::GetLane(hn::SumOfLanes(d64, sum_up));
  const uint64_t down_total = hn::GetLane(hn::SumOfLanes(d64, sum_down));
  const uint64_t sad_previous =
      kFullRange ? up_total + down_total : hn::GetLane(hn::SumOfLanes(d64, sad_p));
  sums.sad_previous += sad_previous;
  sums.sad_reference += kSameReference ? sad_previous : hn::GetLane(hn::SumOfLanes(d64, sad_r));
  sums.motion_sum += int64_t(up_total) - int64_t(down_total);
#endif
  for (; x < n; ++x) {
    sums.sad_previous += uint64_t(std::abs(int(c[x]) - int(p[x])));
    sums.sad_reference += uint64_t(std::abs(int(c[x]) - int(r[x])));
    const int fcx = int(fullRangeLuma(c[x], kFullRange));
    if constexpr (!kFullRange) fc[x] = uint8_t(fcx);
    const int m = fcx - int(fullRangeLuma(p[x], kFullRange));
    sums.motion_sum += m;
    sums.motion_squares += uint64_t(m * m);
  }
}

void DifferenceRow(const uint8_t* c, const uint8_t* p, const uint8_t* r, int n, uint8_t* fc,
                   DifferenceRowSums& sums) {
  const bool same = r == p;
  if (same && !fc) return DifferenceRowOf<true, true>(c, p, r, n, fc, sums);
  if (same) return DifferenceRowOf<true, false>(c, p, r, n, fc, sums);
  if (!fc) return DifferenceRowOf<false, true>(c, p, r, n, fc, sums);
  DifferenceRowOf<false, false>(c, p, r, n, fc, sums);
}

void RegionRowSums(const uint8_t* c, const uint8_t* p, int n, uint32_t change_level, uint64_t& luma,
                   uint64_t& changed) {
  int x = 0;
#if ESF_HEALTH_HALVES
  const hn::ScalableTag<uint8_t> d8;
  const hn::Repartition<uint64_t, decltype(d8)> d64;
  const int lanes = int(hn::Lanes(d8));
  const auto level = hn::Set(d8, uint8_t(std::min<uint32_t>(change_level, 255)));
  auto sum = hn::Zero(d64);
  size_t count = 0;
  for (; x + lanes <= n; x += lanes) {
    const auto vc = hn::LoadU(d8, c + x), vp = hn::LoadU(d8, p + x);
    sum = hn::Add(sum, hn::SumsOf8(vc));
    const auto diff = AbsDiffU8(vc, vp);
    count += hn::CountTrue(d8, hn::Gt(diff, level));
  }
  // The last bytes (fewer than a vector) as the span's last vector, the lanes already added
  // left out: a grid's spans are rarely a multiple of the vector, and the plain loop took a
  // fifth of a 240-pixel span's pixels one by one.
  if (const int last = n - lanes; x < n && last >= 0) {
    const auto fresh = hn::Not(hn::FirstN(d8, size_t(x - last)));
    const auto vc = hn::IfThenElseZero(fresh, hn::LoadU(d8, c + last));
    const auto vp = hn::IfThenElseZero(fresh, hn::LoadU(d8, p + last));
    sum = hn::Add(sum, hn::SumsOf8(vc));
    count += hn::CountTrue(d8, hn::Gt(AbsDiffU8(vc, vp), level));
    x = n;
  }
  luma += hn::GetLane(hn::SumOfLanes(d64, sum));
  changed += count;
#endif
  for (; x < n; ++x) {
    luma += c[x];
    changed += uint32_t(std::abs(int(c[x]) - int(p[x]))) > change_level;
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace esf::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace esf::simd {

HWY_EXPORT(DifferenceRow);
HWY_EXPORT(RegionRowSums);

void differenceRow(const uint8_t* c, const uint8_t* p, const uint8_t* r, int n, uint8_t* fc,
                   DifferenceRowSums& sums) {
  HWY_DYNAMIC_DISPATCH(DifferenceRow)(c, p, r, n, fc, sums);
}
void regionRowSums(const uint8_t* c, const uint8_t* p, int n, uint32_t change_level, uint64_t& luma,
                   uint64_t& changed) {
  HWY_DYNAMIC_DISPATCH(RegionRowSums)(c, p, n, change_level, luma, changed);
}
}  // namespace esf::simd
#endif  // HWY_ONCE
