// Compiled once per Highway target (foreach_target.h re-includes this file); the exported
// wrapper at the bottom picks the best target the CPU has on the first call.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/cpu/simd_bayer.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// clang-format: the Highway includes must stay in this order.
#include <hwy/highway.h>

#include <algorithm>

#include "core/cpu/simd_bayer.hpp"

HWY_BEFORE_NAMESPACE();
namespace esf::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// q = floor(n / divisor) for i32 lanes n in [0, 2^24) and a divisor in [1, 2^16] whose quotients
// stay below 2^8: n is exact in a float, the reciprocal and the product round by at most 2^-24
// each, so the float quotient is within 2^-15 of n / divisor and truncating it gives q - 1, q or
// q + 1; the remainder sets it right.
// (A function of vectors, not a struct holding them: SVE vectors cannot be members.)
template <class D>
HWY_INLINE hn::Vec<D> QuotientOf(D d, hn::Vec<D> n, hn::Vec<D> divisor,
                                 hn::Vec<hn::Rebind<float, D>> reciprocal) {
  const hn::Rebind<float, D> df;
  auto q = hn::ConvertTo(d, hn::Mul(hn::ConvertTo(df, n), reciprocal));
  const auto r = hn::Sub(n, hn::Mul(q, divisor));
  // A mask's lanes are -1 where set: q - 1 where r < 0, q + 1 where r >= divisor.
  q = hn::Add(q, hn::VecFromMask(d, hn::Lt(r, hn::Zero(d))));
  return hn::Sub(q, hn::VecFromMask(d, hn::Gt(r, hn::Sub(divisor, hn::Set(d, 1)))));
}

// 1 / divisor in float lanes, for QuotientOf.
template <class D>
HWY_INLINE hn::Vec<hn::Rebind<float, D>> ReciprocalOf(D, uint32_t divisor) {
  return hn::Set(hn::Rebind<float, D>(), 1.0f / float(divisor));
}

int DemosaicInterior(const uint16_t* up, const uint16_t* row, const uint16_t* down, int x0, int x1,
                     int even_colour, int odd_colour, const BayerLevels& levels, uint8_t* rgba) {
  const hn::ScalableTag<int32_t> d;
  const hn::Rebind<uint16_t, decltype(d)> d16;
  const int lanes = int(hn::Lanes(d));
  // A row holds green and one other colour, at its "sites". At a site the site's colour is the
  // value itself, green the mean of the 4 edge neighbours and the third colour that of the 4
  // corners; at a green pixel the site's colour is the mean of the left and right neighbours and
  // the third colour that of the upper and lower ones.
  const bool red_row = even_colour == 0 || odd_colour == 0;
  const auto lane_is_odd = hn::Eq(hn::And(hn::Iota(d, 0), hn::Set(d, 1)), hn::Set(d, 1));
  const auto sites_from_even_x = even_colour == 1 ? lane_is_odd : hn::Not(lane_is_odd);
  const auto black = hn::Set(d, int32_t(levels.black)), range = hn::Set(d, int32_t(levels.range));
  const auto gain_site = hn::Set(d, int32_t(red_row ? levels.gain_r : levels.gain_b));
  const auto gain_third = hn::Set(d, int32_t(red_row ? levels.gain_b : levels.gain_r));
  const auto one = hn::Set(d, 1), two = hn::Set(d, 2), half = hn::Set(d, 128);
  const auto alpha = hn::Set(d, int32_t(0xff000000u));
  auto load = [&](const uint16_t* p) { return hn::PromoteTo(d, hn::LoadU(d16, p)); };
  // min(max(v - black, 0) * gain + 128 >> 8, range), then (255 s + range / 2) / range, at most
  // 255 as s <= range. Arithmetic, where gathers from the levels table took 2 of every 3 cycles.
  const auto by_range = ReciprocalOf(d, levels.range);
  const auto times255 = hn::Set(d, 255), round = hn::Set(d, int32_t(levels.range / 2));
  auto byte = [&](hn::Vec<decltype(d)> s) {
    return QuotientOf(d, hn::Add(hn::Mul(hn::Min(s, range), times255), round), range, by_range);
  };
  auto level = [&](hn::Vec<decltype(d)> v, hn::Vec<decltype(d)> gain) {
    return byte(hn::ShiftRight<8>(hn::Add(hn::Mul(hn::Sub(hn::Max(v, black), black), gain), half)));
  };
  if (x1 - x0 < lanes) return x0;
  // Whole vectors from x0, the last one ending at x1 (over pixels already written, the same
  // bytes): with 16 lanes a 1080p row left 14 pixels to the plain loop, a division per channel
  // each.
  for (int x = x0;; x = std::min(x + lanes, x1 - lanes)) {
    // The lanes at the row's sites, where lane 0 is at x (odd with one lane, or the last vector).
    const auto at_site = x % 2 == 0 ? sites_from_even_x : hn::Not(sites_from_even_x);
    const auto c = load(row + x), left = load(row + x - 1), right = load(row + x + 1);
    const auto above = load(up + x), below = load(down + x);
    const auto across = hn::Add(left, right), along = hn::Add(above, below);
    const auto corners = hn::Add(hn::Add(load(up + x - 1), load(up + x + 1)),
                                 hn::Add(load(down + x - 1), load(down + x + 1)));
    const auto site = hn::IfThenElse(at_site, c, hn::ShiftRight<1>(hn::Add(across, one)));
    const auto green =
        hn::IfThenElse(at_site, hn::ShiftRight<2>(hn::Add(hn::Add(across, along), two)), c);
    const auto third = hn::IfThenElse(at_site, hn::ShiftRight<2>(hn::Add(corners, two)),
                                      hn::ShiftRight<1>(hn::Add(along, one)));
    const auto site_byte = level(site, gain_site), third_byte = level(third, gain_third);
    const auto green_byte = byte(hn::Sub(hn::Max(green, black), black));
    const auto red = red_row ? site_byte : third_byte, blue = red_row ? third_byte : site_byte;
    const auto px =
        hn::Or(hn::Or(red, hn::ShiftLeft<8>(green_byte)), hn::Or(hn::ShiftLeft<16>(blue), alpha));
    hn::StoreU(px, d, reinterpret_cast<int32_t*>(rgba + 4 * size_t(x)));
    if (x + lanes >= x1) break;
  }
  return x1;
}

void RawBinsOfRow(const uint16_t* row, int n, const RawBinning& binning, uint8_t* bins_out,
                  uint64_t crushed[2], uint64_t clipped[2]) {
  const hn::ScalableTag<int32_t> d;
  const hn::Rebind<uint16_t, decltype(d)> d16;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int lanes = int(hn::Lanes(d));
  const auto black = hn::Set(d, int32_t(binning.black)), white = hn::Set(d, int32_t(binning.white));
  const auto bins = hn::Set(d, int32_t(binning.bins)), span = hn::Set(d, int32_t(binning.span));
  const auto by_span = ReciprocalOf(d, binning.span);
  const auto at_black = hn::Add(black, hn::Set(d, 1)), below_white = hn::Sub(white, hn::Set(d, 1));
  const auto lane_is_odd = hn::Eq(hn::And(hn::Iota(d, 0), hn::Set(d, 1)), hn::Set(d, 1));
  size_t crushed_all = 0, crushed_odd = 0, clipped_all = 0, clipped_odd = 0;
  int x = 0;
  for (; x + lanes <= n; x += lanes) {
    const auto v = hn::PromoteTo(d, hn::LoadU(d16, row + x));
    const auto s = hn::Sub(hn::Min(v, white), hn::Min(v, black));
    hn::StoreU(hn::DemoteTo(d8, QuotientOf(d, hn::Mul(s, bins), span, by_span)), d8, bins_out + x);
    // The lanes at odd x: those at odd lanes while x is even (always, but with one lane).
    const auto at_odd = x % 2 == 0 ? lane_is_odd : hn::Not(lane_is_odd);
    const auto is_crushed = hn::Lt(v, at_black), is_clipped = hn::Gt(v, below_white);
    crushed_all += hn::CountTrue(d, is_crushed);
    crushed_odd += hn::CountTrue(d, hn::And(is_crushed, at_odd));
    clipped_all += hn::CountTrue(d, is_clipped);
    clipped_odd += hn::CountTrue(d, hn::And(is_clipped, at_odd));
  }
  crushed[0] += crushed_all - crushed_odd, crushed[1] += crushed_odd;
  clipped[0] += clipped_all - clipped_odd, clipped[1] += clipped_odd;
  for (; x < n; ++x) {
    const uint32_t v = row[x];
    const uint32_t s = std::min(v, binning.white) - std::min(v, binning.black);
    bins_out[x] = uint8_t(s * binning.bins / binning.span);
    crushed[x % 2] += v <= binning.black, clipped[x % 2] += v >= binning.white;
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace esf::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace esf::simd {

HWY_EXPORT(DemosaicInterior);
HWY_EXPORT(RawBinsOfRow);

int demosaicInterior(const uint16_t* up, const uint16_t* row, const uint16_t* down, int x0, int x1,
                     int even_colour, int odd_colour, const BayerLevels& levels, uint8_t* rgba) {
  return HWY_DYNAMIC_DISPATCH(DemosaicInterior)(up, row, down, x0, x1, even_colour, odd_colour,
                                                levels, rgba);
}

void rawBinsOfRow(const uint16_t* row, int n, const RawBinning& binning, uint8_t* bins_out,
                  uint64_t crushed[2], uint64_t clipped[2]) {
  HWY_DYNAMIC_DISPATCH(RawBinsOfRow)(row, n, binning, bins_out, crushed, clipped);
}

}  // namespace esf::simd
#endif  // HWY_ONCE
