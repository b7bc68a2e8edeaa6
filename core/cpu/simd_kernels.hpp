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

// rgba[4x..4x+3] = the R, G, B and A bytes of packed pixel x (order's offsets within its bpp
// bytes; A 255 where order.a < 0) for x in [0, n): packed RGB and GREY rows as RGBA.
void packedRowToRgba(const uint8_t* in, const RgbOrder& order, int n, uint8_t* rgba);
// out[x] = in[x * step] for x in [0, n): one component of packed pixels (a vector loop for step
// 2). Reads nothing past in[(n - 1) step].
void pickBytes(const uint8_t* in, int step, int n, uint8_t* out);
// out[x] = in[(x / 2) * step] for x in [0, n): horizontally subsampled chroma at full width, the
// nearest sample (vector loops for step 1, 2 and 4). Reads nothing past in[((n - 1) / 2) step].
void repeatHalvedBytes(const uint8_t* in, int step, int n, uint8_t* out);

// sums[i] += uint32_t(add[i]) - uint32_t(sub[i]) for i in [0, n) (a sliding window's step).
void slideSums(uint32_t* sums, const uint8_t* add, const uint8_t* sub, int n);
// sums[i] += uint32_t(add[i]) for i in [0, n).
void addBytes(uint32_t* sums, const uint8_t* add, int n);
// acc[i] += weight * row[i] for i in [0, n).
void addWeighted(uint32_t* acc, const uint32_t* row, uint32_t weight, int n);
// out[i] = (sums[i] + divisor / 2) / divisor for i in [0, n); each sums[i] <= 255 * divisor.
void divideRounded(const uint32_t* sums, uint32_t divisor, int n, uint8_t* out);

// The same on u16 sums (a window of at most 257 bytes: 255 * 257 < 65536), twice the lanes.
void divideRounded(const uint16_t* sums, uint32_t divisor, int n, uint8_t* out);
// (s + divisor/2) / divisor for s in [0, 255 divisor] as a u16 multiply and shift, when one is
// exact over that whole range (checked exhaustively here: a few ten thousand steps, so once per
// image, not per row); exact = false: divideRounded takes the float path.
struct U16Divider {
  uint32_t divisor = 1;
  uint16_t mul = 0;
  int shift = 0;
  bool exact = false;
};
U16Divider u16Divider(uint32_t divisor);
void divideRounded(const uint16_t* sums, const U16Divider& by, int n, uint8_t* out);
void slideSums(uint16_t* sums, const uint8_t* add, const uint8_t* sub, int n);
void addBytes(uint16_t* sums, const uint8_t* add, int n);

// out[i] = in[i] for i in [0, n), widened.
void widen(const uint8_t* in, int n, uint16_t* out);
void widen(const uint8_t* in, int n, uint32_t* out);

// out[i] = in[i] + in[i + stride] + ... + in[i + (taps - 1) stride] for i in [0, n): a box
// window along a row of interleaved channels (stride 4 for RGBA). `in` holds
// n + (taps - 1) stride elements; the two scratch buffers as many each.
void windowSums(const uint16_t* in, int n, int taps, int stride, uint16_t* out, uint16_t* scratch0,
                uint16_t* scratch1);
void windowSums(const uint32_t* in, int n, int taps, int stride, uint32_t* out, uint32_t* scratch0,
                uint32_t* scratch1);

// out[4x + 3] = in[4x + 3] for x in [0, pixels), the other bytes of `out` kept.
void copyAlpha(const uint8_t* in, uint8_t* out, int pixels);

// out[x] = (r R + g G + b B + round) >> shift of RGBA pixel x, for x in [0, n): the integer luma
// of base/channels.hpp (weights summing below 2^16, so each sum fits u32 lanes).
struct LumaWeightsU32 {
  uint32_t r, g, b, round;
  int shift;
};
void lumaOfRgba(const uint8_t* rgba, int n, const LumaWeightsU32& weights, uint8_t* out);

// out[4x + c] = (row0[8x + c] + row0[8x + 4 + c] + row1[8x + c] + row1[8x + 4 + c] + 2) >> 2
// for x in [0, out_w), c in [0, 4): an exact 2:1 area downscale of two RGBA rows.
void halveRgbaRow(const uint8_t* row0, const uint8_t* row1, int out_w, uint8_t* out);

}  // namespace esf::simd
