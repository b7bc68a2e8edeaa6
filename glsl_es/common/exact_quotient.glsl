// float(d) / float(t) correctly rounded (to nearest, ties to even), as IEEE division on the host
// gives it, for integers d in 0..255 and t in 1..2047: GLSL's division may be 2.5 ulp off. Long
// division of the integers in two steps of 32-bit arithmetic, no loop (llvmpipe counts every
// loop iteration of an invocation against one limit); the quotient is a normal float
// (2^-11 < d / t < 2^8), so no denormal occurs.
float exactQuotient(uint d, uint t) {
  if (d == 0u) return 0.0;
  // n = floor(d * 2^s / t) lies in [2^24, 2^26): the 24-bit significand and one or two more bits.
  int s = 25 + findMSB(t) - findMSB(d);
  int a = min(s, 24), b = s - a;  // d << 24 fits 32 bits; the remainder (< t) << b fits too
  // Two divisions: each remainder from its quotient (a modulo would be a division of its own).
  uint x = d << uint(a), n = x / t, r = x - n * t;
  x = r << uint(b);
  uint low = x / t;
  n = (n << uint(b)) + low;
  r = x - low * t;
  int extra = n >= (1u << 25) ? 2 : 1;  // bits below the significand
  uint m = n >> uint(extra);
  bool round_bit = ((n >> uint(extra - 1)) & 1u) != 0u;
  bool sticky = (n & ((1u << uint(extra - 1)) - 1u)) != 0u || r != 0u;
  int exponent = 23 + extra - s;  // of m's leading bit
  if (round_bit && (sticky || (m & 1u) != 0u)) ++m;
  if (m == (1u << 24)) {
    m >>= 1;
    ++exponent;
  }
  return uintBitsToFloat(uint(exponent + 127) << 23 | (m & 0x7FFFFFu));
}
