// RGBA8 texture -> packed SSBO, one uint per pixel, R in bits 0-7 (core/image/gpu_image.hpp).
#ifndef WG_X
#define WG_X 16
#endif
#ifndef WG_Y
#define WG_Y 16
#endif
layout(local_size_x = WG_X, local_size_y = WG_Y) in;
uniform highp sampler2D u_image;
layout(std430, binding = 0) writeonly buffer Packed { uint pixels[]; };

void main() {
  ivec2 size = textureSize(u_image, 0);
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= size.x || p.y >= size.y) return;
  // unorm8 -> float is c / 255: scaling back and rounding gives c exactly.
  uvec4 c = uvec4(texelFetch(u_image, p, 0) * 255.0 + 0.5);
  pixels[p.y * size.x + p.x] = c.r | (c.g << 8) | (c.b << 16) | (c.a << 24);
}
