// Packed RGB (24 and 32 bit, any byte order) and GREY -> the RGBA8 working image: pure byte
// selection, so GPU and CPU reference (core/import/import_reference.cpp) agree trivially.
// With PACKED_OUT the image is a packed buffer instead (one uint per pixel, R in bits 0-7:
// core/image/gpu_image.hpp's PackedRgbaBuffer), for stages that read that layout.
#ifndef PACKED_OUT
#define PACKED_OUT 0
#endif
#ifndef LOCAL_X
#define LOCAL_X 16
#endif
#ifndef LOCAL_Y
#define LOCAL_Y 16
#endif
layout(local_size_x = LOCAL_X, local_size_y = LOCAL_Y) in;

#if PACKED_OUT
layout(std430, binding = 0) writeonly buffer PackedOut { uint out_pixels[]; };
#else
layout(rgba8, binding = 0) writeonly uniform highp image2D u_out;
#endif

uniform highp sampler2D u_plane0;
// 1: an R8 texture of bytes, pixel x at bytes x*u_bpp ..; 3: an RGB8 texel per pixel;
// 4: an RGBA8 texel per pixel.
uniform int u_texel_bytes;
uniform int u_bpp;
uniform ivec4 u_offsets;  // byte index of R, G, B, A within a pixel; A < 0: opaque
uniform ivec2 u_size;

int byteOf(ivec2 p, int index) {
  if (u_texel_bytes == 1)
    return int(texelFetch(u_plane0, ivec2(p.x * u_bpp + index, p.y), 0).r * 255.0 + 0.5);
  vec4 t = texelFetch(u_plane0, p, 0);
  return int(t[index] * 255.0 + 0.5);
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= u_size.x || p.y >= u_size.y) return;
  int a = u_offsets.w < 0 ? 255 : byteOf(p, u_offsets.w);
  ivec4 v = ivec4(byteOf(p, u_offsets.x), byteOf(p, u_offsets.y), byteOf(p, u_offsets.z), a);
#if PACKED_OUT
  uvec4 u = uvec4(v);
  out_pixels[uint(p.y) * uint(u_size.x) + uint(p.x)] = u.r | (u.g << 8) | (u.b << 16) | (u.a << 24);
#else
  imageStore(u_out, p, vec4(v) / 255.0);
#endif
}
