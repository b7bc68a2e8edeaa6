// Limited-range luma stretched to full: 255 * (clamp(y, 16, 235) - 16) / 219, truncated (siti);
// with u_full_range the luma as it is. The shader declares `uniform bool u_full_range`.
// The division as a multiply and a shift: (d * 4884015) >> 22 = 255 d / 219 truncated for every
// d in [0, 219] (4884015 = 255 ceil(2^22 / 219); the product stays below 2^31). A division was
// most of the Sobel pass's instructions on Midgard and made it spill.
int fullRange(uint y) {
  if (u_full_range) return int(y);
  return int(((clamp(y, 16u, 235u) - 16u) * 4884015u) >> 22);
}
