// The tiled separable box blur, in integers (core/stages/blur.hpp). One pass: a
// workgroup loads a ROWS x TILE_W tile (each invocation a ROWS x COLS block; by default 4 x 4,
// 32 invocations, 4 x 128 tile) and writes BLOCK = TILE_W - (FILTER_DIM - 1) outputs per row.
// u_flip swaps x and y, so the same code runs the vertical pass.
#ifndef TILE_W
#define TILE_W 128
#endif
#ifndef ROWS
#define ROWS 4
#endif
#ifndef WG_X
#define WG_X 32
#endif
#ifndef FILTER_DIM
#define FILTER_DIM 15
#endif
layout(local_size_x = WG_X) in;
uniform highp sampler2D u_image;
layout(rgba8, binding = 0) writeonly uniform highp image2D u_out;
uniform int u_flip;

const int COLS = TILE_W / WG_X;
const int OFFSET = (FILTER_DIM - 1) / 2;
const int BLOCK = TILE_W - (FILTER_DIM - 1);
shared uint tile[ROWS * TILE_W];  // RGBA8 packed, R in bits 0-7

void main() {
  ivec2 dims = textureSize(u_image, 0);
  bool flip = u_flip != 0;
  ivec2 pass_dims = flip ? dims.yx : dims;  // x runs along the filter
  int first_col = int(gl_LocalInvocationID.x) * COLS;
  ivec2 base = ivec2(int(gl_WorkGroupID.x) * BLOCK + first_col - OFFSET,
                     int(gl_WorkGroupID.y) * ROWS);
  for (int r = 0; r < ROWS; ++r) {
    for (int c = 0; c < COLS; ++c) {
      // Clamp-to-edge by hand: texelFetch outside the image is undefined.
      ivec2 q = clamp(base + ivec2(c, r), ivec2(0), pass_dims - 1);
      uvec4 t = uvec4(texelFetch(u_image, flip ? q.yx : q, 0) * 255.0 + 0.5);
      tile[r * TILE_W + first_col + c] = t.r | (t.g << 8) | (t.b << 16) | (t.a << 24);
    }
  }
  memoryBarrierShared();
  barrier();
  for (int r = 0; r < ROWS; ++r) {
    for (int c = 0; c < COLS; ++c) {
      ivec2 q = base + ivec2(c, r);
      int center = first_col + c;
      if (center < OFFSET || center >= TILE_W - OFFSET || q.x >= pass_dims.x ||
          q.y >= pass_dims.y)
        continue;
      uvec3 sum = uvec3(0u);
      for (int f = 0; f < FILTER_DIM; ++f) {
        uint t = tile[r * TILE_W + center + f - OFFSET];
        sum += uvec3(t & 255u, (t >> 8) & 255u, (t >> 16) & 255u);
      }
      uvec3 rgb = (sum + uint(FILTER_DIM / 2)) / uint(FILTER_DIM);
      uint alpha = tile[r * TILE_W + center] >> 24;  // carried through
      imageStore(u_out, flip ? q.yx : q, vec4(uvec4(rgb, alpha)) / 255.0);
    }
  }
}
