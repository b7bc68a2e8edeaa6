// The pixels of the image a stage reads, in row-major order: with SOURCE_BUFFER 1 the packed
// buffer `pixels` (one uint a pixel), else the unorm8 texture `u_image`. The shader declares the
// one it reads and `uniform ivec2 u_size` before it includes this; a variant that reads neither
// defines IMAGE_PIXELS 0 first (the functions below are then left out).
#include "common/rgba8.glsl"
#ifndef IMAGE_PIXELS
#define IMAGE_PIXELS 1
#endif
#if IMAGE_PIXELS

uvec4 pixelAt(ivec2 p) {
#if SOURCE_BUFFER
  return unpackPixel(pixels[uint(p.y) * uint(u_size.x) + uint(p.x)]);
#else
  return texelBytes(texelFetch(u_image, p, 0));
#endif
}

// Pixel i of the row-major order.
uvec4 pixelAtIndex(uint i) {
#if SOURCE_BUFFER
  return unpackPixel(pixels[i]);
#else
  return pixelAt(ivec2(int(i % uint(u_size.x)), int(i / uint(u_size.x))));
#endif
}

// Pixel (x + j, y) in row-major order, wrapped onto the next rows (j <= 3, so 3 wraps at most:
// no division and no loop).
uvec4 pixelAfter(int x, int y, int j) {
  int px = x + j, py = y;
  if (px >= u_size.x) {
    px -= u_size.x;
    ++py;
  }
  if (px >= u_size.x) {
    px -= u_size.x;
    ++py;
  }
  if (px >= u_size.x) {
    px -= u_size.x;
    ++py;
  }
  return pixelAt(ivec2(px, py));
}
#endif
