// Area-average downscale, exact (core/stages/resize.hpp has the derivation).
// Along x, in units of 1/a' source pixel (a = W / gcd(W, w), a' = w / gcd(W, w)): source pixel
// x covers [x a', (x+1) a'), output pixel ox covers [ox a, (ox+1) a); the overlap length is
// the integer weight wx and the weights of one output sum to a. Same along y with b, b'.
// out = (sum of wx * wy * v + a*b/2) / (a*b) per channel: the area mean, rounded half up.
#ifndef WG_X
#define WG_X 16
#endif
#ifndef WG_Y
#define WG_Y 16
#endif
layout(local_size_x = WG_X, local_size_y = WG_Y) in;
uniform highp sampler2D u_image;
layout(rgba8, binding = 0) writeonly uniform highp image2D u_out;
uniform ivec2 u_out_size;
uniform uvec2 u_unit_out;  // (a, b): one output pixel's length in units
uniform uvec2 u_unit_in;   // (a', b'): one source pixel's length in units

void main() {
  ivec2 o = ivec2(gl_GlobalInvocationID.xy);
  if (o.x >= u_out_size.x || o.y >= u_out_size.y) return;
  uvec2 lo = uvec2(o) * u_unit_out;        // footprint start, in units
  uvec2 hi = lo + u_unit_out;              // footprint end (exclusive)
  uvec2 first = lo / u_unit_in;            // first source pixel it touches
  uvec2 last = (hi - 1u) / u_unit_in;      // last source pixel it touches
  uvec4 sum = uvec4(0u);
  for (uint y = first.y; y <= last.y; ++y) {
    uint wy = min(hi.y, (y + 1u) * u_unit_in.y) - max(lo.y, y * u_unit_in.y);
    uvec4 row = uvec4(0u);
    for (uint x = first.x; x <= last.x; ++x) {
      uint wx = min(hi.x, (x + 1u) * u_unit_in.x) - max(lo.x, x * u_unit_in.x);
      // unorm8 -> float is c / 255: scaling back and rounding gives c exactly.
      row += wx * uvec4(texelFetch(u_image, ivec2(x, y), 0) * 255.0 + 0.5);
    }
    sum += wy * row;
  }
  uint n = u_unit_out.x * u_unit_out.y;
  uvec4 mean = (sum + n / 2u) / n;
  imageStore(u_out, o, vec4(mean) / 255.0);
}
