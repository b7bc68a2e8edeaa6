// Compiled once per Highway target (foreach_target.h re-includes this file); the exported
// wrappers at the bottom pick the best target the CPU has on the first call.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/cpu/simd_kernels.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// clang-format: the Highway includes must stay in this order.
#include <hwy/highway.h>

#include <bit>

#include "core/cpu/simd_kernels.hpp"

HWY_BEFORE_NAMESPACE();
namespace esf::simd {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

static_assert(std::endian::native == std::endian::little, "RGBA is stored as little-endian u32");

void YuvRowToRgba(const YuvCoefficients& k, const uint8_t* y, const uint8_t* cb, const uint8_t* cr,
                  int n, uint8_t* rgba) {
  const hn::ScalableTag<int32_t> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int lanes = int(hn::Lanes(d));
  const auto yoff = hn::Set(d, k.y_offset), ys = hn::Set(d, k.ys), rv = hn::Set(d, k.rv),
             gu = hn::Set(d, k.gu), gv = hn::Set(d, k.gv), bu = hn::Set(d, k.bu);
  const auto c128 = hn::Set(d, 128), half = hn::Set(d, 32768), zero = hn::Zero(d),
             max = hn::Set(d, 255), alpha = hn::Set(d, int32_t(0xff000000u));
  int x = 0;
  for (; x + lanes <= n; x += lanes) {
    const auto c = hn::Mul(ys, hn::Sub(hn::PromoteTo(d, hn::LoadU(d8, y + x)), yoff));
    const auto dd = hn::Sub(hn::PromoteTo(d, hn::LoadU(d8, cb + x)), c128);
    const auto e = hn::Sub(hn::PromoteTo(d, hn::LoadU(d8, cr + x)), c128);
    const auto base = hn::Add(c, half);
    auto r = hn::ShiftRight<16>(hn::Add(base, hn::Mul(rv, e)));
    auto g = hn::ShiftRight<16>(hn::Sub(hn::Sub(base, hn::Mul(gu, dd)), hn::Mul(gv, e)));
    auto b = hn::ShiftRight<16>(hn::Add(base, hn::Mul(bu, dd)));
    r = hn::Min(hn::Max(r, zero), max);
    g = hn::Min(hn::Max(g, zero), max);
    b = hn::Min(hn::Max(b, zero), max);
    const auto px = hn::Or(hn::Or(r, hn::ShiftLeft<8>(g)), hn::Or(hn::ShiftLeft<16>(b), alpha));
    hn::StoreU(px, d, reinterpret_cast<int32_t*>(rgba + 4 * size_t(x)));
  }
  for (; x < n; ++x) {
    yuvToRgb(k, y[x], cb[x], cr[x], rgba + 4 * size_t(x));
    rgba[4 * size_t(x) + 3] = 255;
  }
}

void SlideSums(uint32_t* sums, const uint8_t* add, const uint8_t* sub, int n) {
  const hn::ScalableTag<uint32_t> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int lanes = int(hn::Lanes(d));
  int i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto s = hn::Add(hn::LoadU(d, sums + i), hn::PromoteTo(d, hn::LoadU(d8, add + i)));
    hn::StoreU(hn::Sub(s, hn::PromoteTo(d, hn::LoadU(d8, sub + i))), d, sums + i);
  }
  for (; i < n; ++i) sums[i] += uint32_t(add[i]) - uint32_t(sub[i]);
}

void AddBytes(uint32_t* sums, const uint8_t* add, int n) {
  const hn::ScalableTag<uint32_t> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int lanes = int(hn::Lanes(d));
  int i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::StoreU(hn::Add(hn::LoadU(d, sums + i), hn::PromoteTo(d, hn::LoadU(d8, add + i))), d,
               sums + i);
  for (; i < n; ++i) sums[i] += add[i];
}

void AddWeighted(uint32_t* acc, const uint32_t* row, uint32_t weight, int n) {
  const hn::ScalableTag<uint32_t> d;
  const int lanes = int(hn::Lanes(d));
  const auto w = hn::Set(d, weight);
  int i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::StoreU(hn::Add(hn::LoadU(d, acc + i), hn::Mul(hn::LoadU(d, row + i), w)), d, acc + i);
  for (; i < n; ++i) acc[i] += weight * row[i];
}

// Float: (x + 0.5) / divisor is at least 0.5 / divisor from an integer and below 256, so with
// divisor <= 4096 the float product's error (< 2^-15) cannot cross one; the truncation is exact.
void DivideRounded(const uint32_t* sums, uint32_t divisor, int n, uint8_t* out) {
  int i = 0;
  if (divisor <= 4096) {
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const hn::Rebind<uint8_t, decltype(di)> d8;
    const int lanes = int(hn::Lanes(df));
    const auto inv = hn::Set(df, 1.0f / float(divisor));
    const auto bias = hn::Set(df, float(divisor / 2) + 0.5f);
    for (; i + lanes <= n; i += lanes) {
      const auto s = hn::ConvertTo(
          df, hn::BitCast(di, hn::LoadU(hn::RebindToUnsigned<decltype(di)>(), sums + i)));
      const auto q = hn::ConvertTo(di, hn::Mul(hn::Add(s, bias), inv));
      hn::StoreU(hn::DemoteTo(d8, q), d8, out + i);
    }
  }
  for (; i < n; ++i) out[i] = uint8_t((sums[i] + divisor / 2) / divisor);
}

}  // namespace HWY_NAMESPACE
}  // namespace esf::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace esf::simd {

HWY_EXPORT(YuvRowToRgba);
HWY_EXPORT(SlideSums);
HWY_EXPORT(AddBytes);
HWY_EXPORT(AddWeighted);
HWY_EXPORT(DivideRounded);

void yuvRowToRgba(const YuvCoefficients& k, const uint8_t* y, const uint8_t* cb, const uint8_t* cr,
                  int n, uint8_t* rgba) {
  HWY_DYNAMIC_DISPATCH(YuvRowToRgba)(k, y, cb, cr, n, rgba);
}
void slideSums(uint32_t* sums, const uint8_t* add, const uint8_t* sub, int n) {
  HWY_DYNAMIC_DISPATCH(SlideSums)(sums, add, sub, n);
}
void addBytes(uint32_t* sums, const uint8_t* add, int n) {
  HWY_DYNAMIC_DISPATCH(AddBytes)(sums, add, n);
}
void addWeighted(uint32_t* acc, const uint32_t* row, uint32_t weight, int n) {
  HWY_DYNAMIC_DISPATCH(AddWeighted)(acc, row, weight, n);
}
void divideRounded(const uint32_t* sums, uint32_t divisor, int n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(DivideRounded)(sums, divisor, n, out);
}

}  // namespace esf::simd
#endif  // HWY_ONCE
