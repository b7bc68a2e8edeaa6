// Y'CbCr planes -> the RGBA8 working image, with the integer formula of
// core/import/import_reference.hpp (the CPU reference computes the same bits).
// Planes are separate R8 / GR88 textures read with texelFetch (no samplerExternalOES: Mesa
// converts YUV only in fragment shaders). Chroma is the nearest sample of the pixel's block.
// WRITE_LUMA adds the source's Y as a second result (R=G=B=Y); without it the program declares
// no second image or buffer (v3d reads every declared unit at dispatch, bound or not).
// With PACKED_OUT both results are packed buffers instead (one uint per pixel, R in bits 0-7:
// core/image/gpu_image.hpp's PackedRgbaBuffer), for stages that read that layout.
#ifndef PACKED_OUT
#define PACKED_OUT 0
#endif
#ifndef WRITE_LUMA
#define WRITE_LUMA 0
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
#if WRITE_LUMA
layout(std430, binding = 1) writeonly buffer PackedLuma { uint luma_pixels[]; };  // R=G=B=Y
#endif
#else
layout(rgba8, binding = 0) writeonly uniform highp image2D u_out;
#if WRITE_LUMA
layout(rgba8, binding = 1) writeonly uniform highp image2D u_luma;  // R=G=B=Y
#endif
#endif

uniform highp sampler2D u_plane0;  // Y (R8), or Y+C pairs (GR88) for YUYV / UYVY
uniform highp sampler2D u_plane1;  // Cb (R8), or CbCr (GR88) for NV12 / NV21
uniform highp sampler2D u_plane2;  // Cr (R8)
uniform int u_layout;              // 0 planar, 1 semi-planar, 2 YUYV, 3 UYVY
uniform ivec2 u_chroma_shift;      // log2 of the chroma subsampling in x and y
uniform bool u_swap_uv;            // NV21: CrCb
uniform ivec4 u_k0;                // y_offset, ys, rv, gu (16.16)
uniform ivec2 u_k1;                // gv, bu
uniform ivec2 u_size;

ivec4 bytes(vec4 t) { return ivec4(t * 255.0 + 0.5); }

int clamp8(int v) { return clamp(v, 0, 255); }

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= u_size.x || p.y >= u_size.y) return;
  int y, cb, cr;
  if (u_layout == 0) {
    y = bytes(texelFetch(u_plane0, p, 0)).r;
    ivec2 c = p >> u_chroma_shift;
    cb = bytes(texelFetch(u_plane1, c, 0)).r;
    cr = bytes(texelFetch(u_plane2, c, 0)).r;
  } else if (u_layout == 1) {
    y = bytes(texelFetch(u_plane0, p, 0)).r;
    ivec4 c = bytes(texelFetch(u_plane1, p >> u_chroma_shift, 0));
    cb = u_swap_uv ? c.g : c.r;
    cr = u_swap_uv ? c.r : c.g;
  } else {
    // Texel x holds (Y_x, C_x) for YUYV, (C_x, Y_x) for UYVY; C is Cb at even x, Cr at odd x.
    ivec4 t = bytes(texelFetch(u_plane0, p, 0));
    ivec4 even = bytes(texelFetch(u_plane0, ivec2(p.x & ~1, p.y), 0));
    ivec4 odd = bytes(texelFetch(u_plane0, ivec2(p.x | 1, p.y), 0));
    bool yuyv = u_layout == 2;
    y = yuyv ? t.r : t.g;
    cb = yuyv ? even.g : even.r;
    cr = yuyv ? odd.g : odd.r;
  }
  int c = u_k0.y * (y - u_k0.x);
  int d = cb - 128;
  int e = cr - 128;
  int r = clamp8((c + u_k0.z * e + 32768) >> 16);
  int g = clamp8((c - u_k0.w * d - u_k1.x * e + 32768) >> 16);
  int b = clamp8((c + u_k1.y * d + 32768) >> 16);
#if PACKED_OUT
  uint at = uint(p.y) * uint(u_size.x) + uint(p.x);
  out_pixels[at] = uint(r) | (uint(g) << 8) | (uint(b) << 16) | 0xFF000000u;
#if WRITE_LUMA
  luma_pixels[at] = uint(y) * 0x010101u | 0xFF000000u;
#endif
#else
  imageStore(u_out, p, vec4(r, g, b, 255) / 255.0);
#if WRITE_LUMA
  imageStore(u_luma, p, vec4(y, y, y, 255) / 255.0);
#endif
#endif
}
