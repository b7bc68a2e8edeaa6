// Limited-range luma stretched to full: 255 * (clamp(y, 16, 235) - 16) / 219, truncated (siti);
// with u_full_range the luma as it is. The shader declares `uniform bool u_full_range`.
int fullRange(uint y) {
  if (u_full_range) return int(y);
  return int(255u * (clamp(y, 16u, 235u) - 16u) / 219u);
}
