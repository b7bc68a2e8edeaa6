// An RGBA8 pixel as its four bytes: from a packed word (R in bits 0-7, then G, B, A: the layout
// of core/image/gpu_image.hpp's PackedRgbaBuffer) or from a unorm8 texel, and its integer luma.

uvec4 unpackPixel(uint v) {
  return uvec4(v & 255u, (v >> 8) & 255u, (v >> 16) & 255u, v >> 24);
}

// unorm8 -> float is c / 255: scaling back and rounding gives c exactly.
uvec4 texelBytes(vec4 texel) {
  return uvec4(texel * 255.0 + 0.5);
}

// Luma, rounded: BT.709 (13933, 46871, 4732) / 65536, BT.601 (77, 150, 29) / 256.
uint luma709(uvec3 c) {
  return (13933u * c.r + 46871u * c.g + 4732u * c.b + 32768u) >> 16;
}

uint luma601(uvec3 c) {
  return (77u * c.r + 150u * c.g + 29u * c.b + 128u) >> 8;
}
