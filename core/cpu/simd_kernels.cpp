// Compiled once per Highway target (foreach_target.h re-includes this file); the exported
// wrappers at the bottom pick the best target the CPU has on the first call.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "core/cpu/simd_kernels.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// clang-format: the Highway includes must stay in this order.
#include <hwy/highway.h>

#include <algorithm>
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

// One of four vectors by its index (no arrays: SVE vectors cannot be their elements).
template <class V>
HWY_INLINE V PickVector(int i, V v0, V v1, V v2, V v3) {
  return i == 0 ? v0 : i == 1 ? v1 : i == 2 ? v2 : v3;
}

// rgba[4x + c] = in[bpp x + offset of c] for x in [0, n): packed RGB and GREY pixels reordered
// into RGBA, alpha 255 where the format has none.
void PackedRowToRgba(const uint8_t* in, int bpp, int r, int g, int b, int a, int n, uint8_t* rgba) {
  const hn::ScalableTag<uint8_t> d;
  const int lanes = int(hn::Lanes(d));
  const auto opaque = hn::Set(d, 255);
  int x = 0;
  auto v0 = hn::Zero(d), v1 = v0, v2 = v0, v3 = v0;
  auto store = [&](size_t at) {
    hn::StoreInterleaved4(PickVector(r, v0, v1, v2, v3), PickVector(g, v0, v1, v2, v3),
                          PickVector(b, v0, v1, v2, v3),
                          a < 0 ? opaque : PickVector(a, v0, v1, v2, v3), d, rgba + 4 * at);
  };
  if (bpp == 1)
    for (; x + lanes <= n; x += lanes) {
      v0 = hn::LoadU(d, in + x);
      store(size_t(x));
    }
  else if (bpp == 3)
    for (; x + lanes <= n; x += lanes) {
      hn::LoadInterleaved3(d, in + 3 * size_t(x), v0, v1, v2);
      store(size_t(x));
    }
  else if (bpp == 4)
    for (; x + lanes <= n; x += lanes) {
      hn::LoadInterleaved4(d, in + 4 * size_t(x), v0, v1, v2, v3);
      store(size_t(x));
    }
  for (; x < n; ++x) {
    const uint8_t* p = in + size_t(x) * size_t(bpp);
    uint8_t* o = rgba + 4 * size_t(x);
    o[0] = p[r], o[1] = p[g], o[2] = p[b];
    o[3] = a < 0 ? 255 : p[a];
  }
}

// out[x] = in[x * step] for x in [0, n): one component of packed pixels. A vector reads two
// bytes per pixel, the last pixel's trailing ones included, so the loop stops a pixel short of the
// end and nothing past in[(n - 1) step] is read.
void PickBytes(const uint8_t* in, int step, int n, uint8_t* out) {
  const hn::ScalableTag<uint8_t> d;
  const int lanes = int(hn::Lanes(d));
  int x = 0;
  hn::Vec<decltype(d)> v0, v1;
  if (step == 2)  // Y of packed 4:2:2; no format of the table has another step
    for (; x + lanes < n; x += lanes) {
      hn::LoadInterleaved2(d, in + 2 * size_t(x), v0, v1);
      hn::StoreU(v0, d, out + x);
    }
  for (; x < n; ++x) out[x] = in[size_t(x) * size_t(step)];
}

// out[x] = in[(x / 2) * step] for x in [0, n): subsampled chroma, each sample given to its two
// pixels (the nearest sample). As in PickBytes, no byte past in[((n - 1) / 2) step] is read.
void RepeatHalvedBytes(const uint8_t* in, int step, int n, uint8_t* out) {
  const hn::ScalableTag<uint8_t> d;
  const int lanes = int(hn::Lanes(d));
  int x = 0;
  hn::Vec<decltype(d)> v0, v1, v2, v3;
  if (step == 1)
    for (; x + 2 * lanes <= n; x += 2 * lanes) {
      v0 = hn::LoadU(d, in + x / 2);
      hn::StoreInterleaved2(v0, v0, d, out + x);
    }
  else if (step == 2)
    for (; x + 2 * lanes < n; x += 2 * lanes) {
      hn::LoadInterleaved2(d, in + size_t(x), v0, v1);
      hn::StoreInterleaved2(v0, v0, d, out + x);
    }
  else if (step == 4)
    for (; x + 2 * lanes < n; x += 2 * lanes) {
      hn::LoadInterleaved4(d, in + 2 * size_t(x), v0, v1, v2, v3);
      hn::StoreInterleaved2(v0, v0, d, out + x);
    }
  for (; x < n; ++x) out[x] = in[size_t(x / 2) * size_t(step)];
}

// sums[i] += add[i] - sub[i] in the sums' own width: wrapping arithmetic, so u16 sums are exact
// while every true sum is below 65536.
template <typename Sum>
void SlideSumsT(Sum* sums, const uint8_t* add, const uint8_t* sub, int n) {
  const hn::ScalableTag<Sum> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int lanes = int(hn::Lanes(d));
  int i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto s = hn::Add(hn::LoadU(d, sums + i), hn::PromoteTo(d, hn::LoadU(d8, add + i)));
    hn::StoreU(hn::Sub(s, hn::PromoteTo(d, hn::LoadU(d8, sub + i))), d, sums + i);
  }
  for (; i < n; ++i) sums[i] = Sum(sums[i] + add[i] - sub[i]);
}

// sums[i] += add[i], wrapping likewise.
template <typename Sum>
void AddBytesT(Sum* sums, const uint8_t* add, int n) {
  const hn::ScalableTag<Sum> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int lanes = int(hn::Lanes(d));
  int i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::StoreU(hn::Add(hn::LoadU(d, sums + i), hn::PromoteTo(d, hn::LoadU(d8, add + i))), d,
               sums + i);
  for (; i < n; ++i) sums[i] = Sum(sums[i] + add[i]);
}

void SlideSums(uint32_t* sums, const uint8_t* add, const uint8_t* sub, int n) {
  SlideSumsT(sums, add, sub, n);
}

void AddBytes(uint32_t* sums, const uint8_t* add, int n) {
  AddBytesT(sums, add, n);
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
void DivideRounded16(const uint16_t* sums, uint32_t divisor, int n, uint8_t* out) {
  int i = 0;
  if (divisor <= 4096) {
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const hn::RebindToUnsigned<decltype(df)> du;
    const hn::Rebind<uint16_t, decltype(du)> ds;
    const hn::Rebind<uint8_t, decltype(di)> d8;
    const int lanes = int(hn::Lanes(df));
    const auto inv = hn::Set(df, 1.0f / float(divisor));
    const auto bias = hn::Set(df, float(divisor / 2) + 0.5f);
    for (; i + lanes <= n; i += lanes) {
      const auto wide = hn::BitCast(di, hn::PromoteTo(du, hn::LoadU(ds, sums + i)));
      const auto q = hn::ConvertTo(di, hn::Mul(hn::Add(hn::ConvertTo(df, wide), bias), inv));
      hn::StoreU(hn::DemoteTo(d8, q), d8, out + i);
    }
  }
  for (; i < n; ++i) out[i] = uint8_t((uint32_t(sums[i]) + divisor / 2) / divisor);
}

// ((s + d/2) * mul) >> 16 >> shift in u16 lanes: one multiply per 16 lanes (AVX2) instead of
// the float path's conversions on 8. u16Divider() checked the pair exact over the whole range.
void DivideRoundedFixed16(const uint16_t* sums, const U16Divider& by, int n, uint8_t* out) {
  const hn::ScalableTag<uint16_t> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int lanes = int(hn::Lanes(d));
  const auto half = hn::Set(d, uint16_t(by.divisor / 2)), mul = hn::Set(d, by.mul);
  int i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto q =
        hn::ShiftRightSame(hn::MulHigh(hn::Add(hn::LoadU(d, sums + i), half), mul), by.shift);
    hn::StoreU(hn::DemoteTo(d8, hn::BitCast(di, q)), d8, out + i);
  }
  for (; i < n; ++i) out[i] = uint8_t((uint32_t(sums[i]) + by.divisor / 2) / by.divisor);
}

void LumaOfRgba(const uint8_t* rgba, int n, const LumaWeightsU32& w, uint8_t* out) {
  const hn::ScalableTag<uint32_t> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int lanes = int(hn::Lanes(d));
  const auto byte = hn::Set(d, 0xffu), wr = hn::Set(d, w.r), wg = hn::Set(d, w.g),
             wb = hn::Set(d, w.b), round = hn::Set(d, w.round);
  const uint32_t* px = reinterpret_cast<const uint32_t*>(rgba);
  int i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto p = hn::LoadU(d, px + i);
    const auto r = hn::And(p, byte), g = hn::And(hn::ShiftRight<8>(p), byte),
               b = hn::And(hn::ShiftRight<16>(p), byte);
    const auto sum =
        hn::Add(hn::Add(hn::Mul(r, wr), hn::Mul(g, wg)), hn::Add(hn::Mul(b, wb), round));
    hn::StoreU(hn::DemoteTo(d8, hn::BitCast(di, hn::ShiftRightSame(sum, w.shift))), d8, out + i);
  }
  for (; i < n; ++i) {
    const uint8_t* p = rgba + 4 * size_t(i);
    out[i] = uint8_t((w.r * p[0] + w.g * p[1] + w.b * p[2] + w.round) >> w.shift);
  }
}

// u16 sums: the same steps as the u32 ones above (wrapping arithmetic; exact while every true
// sum is below 65536).
void SlideSums16(uint16_t* sums, const uint8_t* add, const uint8_t* sub, int n) {
  SlideSumsT(sums, add, sub, n);
}
void AddBytes16(uint16_t* sums, const uint8_t* add, int n) {
  AddBytesT(sums, add, n);
}

template <typename Sum>
void WidenT(const uint8_t* in, int n, Sum* out) {
  const hn::ScalableTag<Sum> d;
  const hn::Rebind<uint8_t, decltype(d)> d8;
  const int lanes = int(hn::Lanes(d));
  int i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::StoreU(hn::PromoteTo(d, hn::LoadU(d8, in + i)), d, out + i);
  for (; i < n; ++i) out[i] = in[i];
}
void Widen16(const uint8_t* in, int n, uint16_t* out) {
  WidenT(in, n, out);
}
void Widen32(const uint8_t* in, int n, uint32_t* out) {
  WidenT(in, n, out);
}

// out[i] = sum of in[i + f stride] for f in [0, taps), by doubling: level k holds sums of 2^k
// terms (one vector add per element from the level before), and the set bits of `taps` pick the
// levels that make up the window, at consecutive offsets. O(log taps) adds per output.
template <typename T>
void AddShifted(const T* a, const T* b, int n, T* out) {
  const hn::ScalableTag<T> d;
  const int lanes = int(hn::Lanes(d));
  int i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::StoreU(hn::Add(hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, out + i);
  for (; i < n; ++i) out[i] = T(a[i] + b[i]);
}
template <typename T>
void WindowSumsT(const T* in, int n, int taps, int stride, T* out, T* scratch0, T* scratch1) {
  int len = n + (taps - 1) * stride;  // valid elements of the current level
  const T* level = in;
  T* next = scratch0;
  bool first = true;
  int offset = 0;
  for (int span = 1; span <= taps; span *= 2) {
    if (taps & span) {
      if (first)
        std::copy(level + offset, level + offset + n, out);
      else
        AddShifted(out, level + offset, n, out);
      first = false;
      offset += span * stride;
    }
    if (2 * span > taps) break;
    len -= span * stride;
    AddShifted(level, level + span * stride, len, next);
    level = next;
    next = next == scratch0 ? scratch1 : scratch0;
  }
}
void WindowSums16(const uint16_t* in, int n, int taps, int stride, uint16_t* out, uint16_t* s0,
                  uint16_t* s1) {
  WindowSumsT(in, n, taps, stride, out, s0, s1);
}
void WindowSums32(const uint32_t* in, int n, int taps, int stride, uint32_t* out, uint32_t* s0,
                  uint32_t* s1) {
  WindowSumsT(in, n, taps, stride, out, s0, s1);
}

// out pixel alpha = in pixel alpha, for `pixels` RGBA pixels.
void CopyAlpha(const uint8_t* in, uint8_t* out, int pixels) {
  const hn::ScalableTag<uint32_t> d;
  const int lanes = int(hn::Lanes(d));
  const auto alpha = hn::Set(d, 0xff000000u);
  int i = 0;
  for (; i + lanes <= pixels; i += lanes) {
    uint32_t* o = reinterpret_cast<uint32_t*>(out) + i;
    const auto a = hn::And(hn::LoadU(d, reinterpret_cast<const uint32_t*>(in) + i), alpha);
    hn::StoreU(hn::Or(hn::AndNot(alpha, hn::LoadU(d, o)), a), d, o);
  }
  for (; i < pixels; ++i) out[4 * i + 3] = in[4 * i + 3];
}

// The 2x2 box of each output pixel, per channel (sum + 2) >> 2: two channels at a time in one
// u32 lane (R and B in the even bytes' 16-bit halves, G and A in the odd ones: at most
// 4 * 255 + 2 each, so no carry crosses a half).
void HalveRgbaRow(const uint8_t* row0, const uint8_t* row1, int out_w, uint8_t* out) {
  const hn::ScalableTag<uint32_t> d;
  const int lanes = int(hn::Lanes(d));
  const auto even_mask = hn::Set(d, 0x00ff00ffu), round = hn::Set(d, 0x00020002u);
  const uint32_t* a = reinterpret_cast<const uint32_t*>(row0);
  const uint32_t* b = reinterpret_cast<const uint32_t*>(row1);
  uint32_t* o = reinterpret_cast<uint32_t*>(out);
  auto even = [&](auto v) { return hn::And(v, even_mask); };
  auto odd = [&](auto v) { return hn::And(hn::ShiftRight<8>(v), even_mask); };
  int x = 0;
  for (; x + lanes <= out_w; x += lanes) {
    hn::Vec<decltype(d)> a0, a1, b0, b1;
    hn::LoadInterleaved2(d, a + 2 * x, a0, a1);
    hn::LoadInterleaved2(d, b + 2 * x, b0, b1);
    const auto e =
        hn::Add(hn::Add(hn::Add(even(a0), even(a1)), hn::Add(even(b0), even(b1))), round);
    const auto od = hn::Add(hn::Add(hn::Add(odd(a0), odd(a1)), hn::Add(odd(b0), odd(b1))), round);
    const auto px = hn::Or(hn::And(hn::ShiftRight<2>(e), even_mask),
                           hn::ShiftLeft<8>(hn::And(hn::ShiftRight<2>(od), even_mask)));
    hn::StoreU(px, d, o + x);
  }
  for (; x < out_w; ++x)
    for (int c = 0; c < 4; ++c) {
      const uint32_t sum =
          uint32_t(row0[8 * x + c]) + row0[8 * x + 4 + c] + row1[8 * x + c] + row1[8 * x + 4 + c];
      out[4 * x + c] = uint8_t((sum + 2) >> 2);
    }
}

}  // namespace HWY_NAMESPACE
}  // namespace esf::simd
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace esf::simd {

HWY_EXPORT(YuvRowToRgba);
HWY_EXPORT(PickBytes);
HWY_EXPORT(PackedRowToRgba);
HWY_EXPORT(RepeatHalvedBytes);
HWY_EXPORT(SlideSums);
HWY_EXPORT(AddBytes);
HWY_EXPORT(AddWeighted);
HWY_EXPORT(DivideRounded);
HWY_EXPORT(DivideRounded16);
HWY_EXPORT(DivideRoundedFixed16);
HWY_EXPORT(SlideSums16);
HWY_EXPORT(AddBytes16);
HWY_EXPORT(Widen16);
HWY_EXPORT(Widen32);
HWY_EXPORT(WindowSums16);
HWY_EXPORT(WindowSums32);
HWY_EXPORT(CopyAlpha);
HWY_EXPORT(HalveRgbaRow);
HWY_EXPORT(LumaOfRgba);

void yuvRowToRgba(const YuvCoefficients& k, const uint8_t* y, const uint8_t* cb, const uint8_t* cr,
                  int n, uint8_t* rgba) {
  HWY_DYNAMIC_DISPATCH(YuvRowToRgba)(k, y, cb, cr, n, rgba);
}
void packedRowToRgba(const uint8_t* in, const RgbOrder& order, int n, uint8_t* rgba) {
  HWY_DYNAMIC_DISPATCH(PackedRowToRgba)(in, order.bpp, order.r, order.g, order.b, order.a, n, rgba);
}
void pickBytes(const uint8_t* in, int step, int n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(PickBytes)(in, step, n, out);
}
void repeatHalvedBytes(const uint8_t* in, int step, int n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(RepeatHalvedBytes)(in, step, n, out);
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
void divideRounded(const uint16_t* sums, uint32_t divisor, int n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(DivideRounded16)(sums, divisor, n, out);
}
U16Divider u16Divider(uint32_t divisor) {
  U16Divider by{divisor, 0, 0, false};
  if (divisor < 3 || divisor > 255) return by;  // 1, 2: no u16 multiplier; > 255: s + d/2 overflows
  by.shift = std::bit_width(divisor) - 1;       // 2^shift < divisor (odd or not a power of two)
  const uint32_t mul = uint32_t(((uint64_t(1) << (16 + by.shift)) + divisor - 1) / divisor);
  if (mul > 0xffff) return by;
  by.mul = uint16_t(mul);
  for (uint32_t x = divisor / 2; x <= 255 * divisor + divisor / 2; ++x)
    if (((x * mul) >> 16 >> by.shift) != x / divisor) return by;
  by.exact = true;
  return by;
}
void divideRounded(const uint16_t* sums, const U16Divider& by, int n, uint8_t* out) {
  if (by.exact)
    HWY_DYNAMIC_DISPATCH(DivideRoundedFixed16)(sums, by, n, out);
  else
    HWY_DYNAMIC_DISPATCH(DivideRounded16)(sums, by.divisor, n, out);
}
void slideSums(uint16_t* sums, const uint8_t* add, const uint8_t* sub, int n) {
  HWY_DYNAMIC_DISPATCH(SlideSums16)(sums, add, sub, n);
}
void addBytes(uint16_t* sums, const uint8_t* add, int n) {
  HWY_DYNAMIC_DISPATCH(AddBytes16)(sums, add, n);
}
void widen(const uint8_t* in, int n, uint16_t* out) {
  HWY_DYNAMIC_DISPATCH(Widen16)(in, n, out);
}
void widen(const uint8_t* in, int n, uint32_t* out) {
  HWY_DYNAMIC_DISPATCH(Widen32)(in, n, out);
}
void windowSums(const uint16_t* in, int n, int taps, int stride, uint16_t* out, uint16_t* scratch0,
                uint16_t* scratch1) {
  HWY_DYNAMIC_DISPATCH(WindowSums16)(in, n, taps, stride, out, scratch0, scratch1);
}
void windowSums(const uint32_t* in, int n, int taps, int stride, uint32_t* out, uint32_t* scratch0,
                uint32_t* scratch1) {
  HWY_DYNAMIC_DISPATCH(WindowSums32)(in, n, taps, stride, out, scratch0, scratch1);
}
void copyAlpha(const uint8_t* in, uint8_t* out, int pixels) {
  HWY_DYNAMIC_DISPATCH(CopyAlpha)(in, out, pixels);
}
void lumaOfRgba(const uint8_t* rgba, int n, const LumaWeightsU32& weights, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(LumaOfRgba)(rgba, n, weights, out);
}
void halveRgbaRow(const uint8_t* row0, const uint8_t* row1, int out_w, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(HalveRgbaRow)(row0, row1, out_w, out);
}

}  // namespace esf::simd
#endif  // HWY_ONCE
