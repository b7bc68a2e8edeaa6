// Bilinear Bayer demosaic to the RGBA8 working image, in integers; the CPU reference
// (core/stages/demosaic_reference.hpp) has the formulas and matches bit for bit.
#ifndef WG_X
#define WG_X 16
#endif
#ifndef WG_Y
#define WG_Y 16
#endif
layout(local_size_x = WG_X, local_size_y = WG_Y) in;

uniform highp usampler2D u_raw;  // R16UI: one sensor value per texel
layout(rgba8, binding = 0) writeonly uniform highp image2D u_out;
uniform ivec2 u_size;
uniform ivec2 u_red;     // R's position in the 2x2 block
uniform uvec2 u_levels;  // black, white
uniform uvec2 u_gains;   // R, B in 1/256

// Mirror without repeating the edge: -1 -> 1, n -> n - 2.
int mirror(int i, int n) {
  return i < 0 ? -i : (i >= n ? 2 * n - 2 - i : i);
}

uint at(int x, int y) {
  return texelFetch(u_raw, ivec2(mirror(x, u_size.x), mirror(y, u_size.y)), 0).r;
}

// 0 R, 1 G, 2 B.
int colourAt(int x, int y) {
  int px = (x ^ u_red.x) & 1, py = (y ^ u_red.y) & 1;
  return px == 0 && py == 0 ? 0 : (px == 1 && py == 1 ? 2 : 1);
}

float toUnit(uint v, uint gain) {
  uint s = v > u_levels.x ? v - u_levels.x : 0u;
  s = (s * gain + 128u) >> 8u;
  uint range = u_levels.y - u_levels.x;
  return float(min((s * 255u + range / 2u) / range, 255u)) / 255.0;
}

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= u_size.x || p.y >= u_size.y) return;
  int x = p.x, y = p.y;
  uint c = at(x, y);
  uint edges = (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1) + 2u) >> 2u;
  uint corners =
      (at(x - 1, y - 1) + at(x + 1, y - 1) + at(x - 1, y + 1) + at(x + 1, y + 1) + 2u) >> 2u;
  uint across = (at(x - 1, y) + at(x + 1, y) + 1u) >> 1u;
  uint along = (at(x, y - 1) + at(x, y + 1) + 1u) >> 1u;
  uvec3 rgb;
  int colour = colourAt(x, y);
  if (colour == 0) {
    rgb = uvec3(c, edges, corners);
  } else if (colour == 2) {
    rgb = uvec3(corners, edges, c);
  } else {
    bool red_row = colourAt(x + 1, y) == 0;
    rgb = red_row ? uvec3(across, c, along) : uvec3(along, c, across);
  }
  imageStore(u_out, p,
             vec4(toUnit(rgb.r, u_gains.x), toUnit(rgb.g, 256u), toUnit(rgb.b, u_gains.y), 1.0));
}
