// The histogram's display scale, exact (core/stages/scale.hpp): per channel k
//   numerator = bins, denominator = min(maxCount * bins, 5 * pixels)   (= max(1/max, 0.2*bins/px))
//   scale = numerator / denominator rounded once to the nearest float (ties to even) by integer
// long division, so every GPU and the CPU reference agree bit for bit.
// Output per channel: { maxCount, numerator, denominator, floatBits(scale) }.
// TREE 1: one workgroup of TREE_WG invocations (a power of two, 2..256, from the driver's
// limits: 128 on Mali-T860), each folding 256 / TREE_WG bins, then the maxima a tree in shared
// memory (GPUs); TREE 0: one invocation per channel loops over the bins (llvmpipe, where
// barriers cost more than the loop). core/stages/scale.hpp's ScaleForm.
#ifndef TREE
#define TREE 1
#endif
#ifndef TREE_WG
#define TREE_WG 256
#endif
#if TREE
layout(local_size_x = TREE_WG) in;
#else
layout(local_size_x = 4) in;
#endif
layout(std430, binding = 0) readonly buffer Bins { uint bins[]; };
layout(std430, binding = 1) writeonly buffer Scale { uint scale[]; };
uniform uint u_bins;
uniform uint u_channels;
uniform uint u_pixels;  // 5 * u_pixels < 2^31 (checked on the host)

// num / den as float32 bits, round to nearest even; 1 <= num, den < 2^31. den 0 gives +inf.
uint quotientBits(uint num, uint den) {
  if (den == 0u) return 0x7f800000u;
  uint a = num;
  uint b = den;
  int e = 0;
  while (a < b) {  // a < b < 2^31: the shift cannot overflow
    a <<= 1;
    e--;
  }
  while (a >= 2u * b) {
    b <<= 1;
    e++;
  }
  // b <= a < 2b: 25 quotient bits (1 + 23 mantissa + 1 rounding), remainder = sticky bit.
  uint q = 0u;
  for (int i = 0; i < 25; ++i) {
    q <<= 1;
    if (a >= b) {
      a -= b;
      q |= 1u;
    }
    a <<= 1;
  }
  uint mant = q >> 1;
  if ((q & 1u) != 0u && (a != 0u || (mant & 1u) != 0u)) mant++;
  if (mant == (1u << 24)) {
    mant >>= 1;
    e++;
  }
  return (uint(e + 127) << 23) | (mant & 0x7fffffu);
}

#if TREE
shared uint peak[4 * 256];  // [channel][bin], then the tree's partial maxima

// One level of the tree. GLSL ES 3.1 allows barrier() only in main() and outside control flow,
// so the levels are written out rather than looped.
#define TREE_LEVEL(stride)                                                              \
  if (b < stride)                                                                      \
    for (uint k = 0u; k < 4u; ++k)                                                     \
      peak[k * 256u + b] = max(peak[k * 256u + b], peak[k * 256u + b + stride]);       \
  memoryBarrierShared();                                                               \
  barrier();
#endif

void main() {
  uint b = gl_LocalInvocationIndex;
#if TREE
  for (uint k = 0u; k < 4u; ++k) {
    uint m = 0u;
    for (uint i = b; i < 256u; i += uint(TREE_WG))
      m = max(m, (i < u_bins && k < u_channels) ? bins[i * u_channels + k] : 0u);
    peak[k * 256u + b] = m;
  }
  memoryBarrierShared();
  barrier();
#if TREE_WG > 128
  TREE_LEVEL(128u)
#endif
#if TREE_WG > 64
  TREE_LEVEL(64u)
#endif
#if TREE_WG > 32
  TREE_LEVEL(32u)
#endif
#if TREE_WG > 16
  TREE_LEVEL(16u)
#endif
#if TREE_WG > 8
  TREE_LEVEL(8u)
#endif
#if TREE_WG > 4
  TREE_LEVEL(4u)
#endif
#if TREE_WG > 2
  TREE_LEVEL(2u)
#endif
  TREE_LEVEL(1u)
  uint k = b;
  if (k >= u_channels) return;
  uint m = peak[k * 256u];  // channel k's largest count
#else
  uint k = b;
  if (k >= u_channels) return;
  uint m = 0u;  // channel k's largest count
  for (uint i = 0u; i < u_bins; ++i) m = max(m, bins[i * u_channels + k]);
#endif
  uint hi, lo;
  umulExtended(m, u_bins, hi, lo);
  uint cap = 5u * u_pixels;
  uint den = (hi != 0u || lo > cap) ? cap : lo;
  scale[4u * k] = m;
  scale[4u * k + 1u] = u_bins;
  scale[4u * k + 2u] = den;
  scale[4u * k + 3u] = quotientBits(u_bins, den);
}
