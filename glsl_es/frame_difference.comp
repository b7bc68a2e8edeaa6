// The frame difference (core/stages/frame_difference.hpp): the current luma against the previous
// frame's and the freeze reference's, its packed copy for the next frames, and its histogram.
//   result[0..255]: the histogram (atomics, cleared by the host before the run);
//   result[256 + 4 w ..]: workgroup w's sum |Y - P|, sum |Y - R|, sum F(Y) - F(P) (int bits),
//   sum (F(Y) - F(P))^2, every one within 32 bits for WG_SIZE * WORDS * 4 pixels.
#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef WORDS
#define WORDS 16
#endif
layout(local_size_x = WG_SIZE) in;
uniform highp sampler2D u_image;
uniform uvec2 u_size;
uniform uint u_words;  // ceil(width * height / 4)
uniform bool u_first;  // no kept frames: P = R = Y
uniform bool u_from_rgb;
uniform bool u_full_range;
layout(std430, binding = 0) writeonly buffer Current { uint current_luma[]; };
layout(std430, binding = 1) readonly buffer Previous { uint previous_luma[]; };
layout(std430, binding = 2) readonly buffer Reference { uint reference_luma[]; };
layout(std430, binding = 3) buffer Result { uint result[]; };

shared uint s_hist[256];
shared uint s_sad_previous[WG_SIZE];
shared uint s_sad_reference[WG_SIZE];
shared int s_motion[WG_SIZE];
shared uint s_squares[WG_SIZE];

uint lumaAt(uint i) {
  ivec2 p = ivec2(int(i % u_size.x), int(i / u_size.x));
  // unorm8 -> float is c / 255: scaling back and rounding gives c exactly.
  uvec3 c = uvec3(texelFetch(u_image, p, 0).rgb * 255.0 + 0.5);
  if (!u_from_rgb) return c.r;
  return (13933u * c.r + 46871u * c.g + 4732u * c.b + 32768u) >> 16;
}

// Limited range stretched to full: 255 * clamp(y - 16, 0, 219) / 219 (siti).
int fullRange(uint y) {
  if (u_full_range) return int(y);
  return int(255u * (clamp(y, 16u, 235u) - 16u) / 219u);
}

void main() {
  uint lid = gl_LocalInvocationID.x;
  for (uint b = lid; b < 256u; b += uint(WG_SIZE)) s_hist[b] = 0u;
  barrier();
  uint pixels = u_size.x * u_size.y;
  uint sad_previous = 0u, sad_reference = 0u, squares = 0u;
  int motion = 0;
  uint base = gl_WorkGroupID.x * uint(WG_SIZE * WORDS);
  for (uint k = 0u; k < uint(WORDS); ++k) {
    uint word = base + k * uint(WG_SIZE) + lid;
    if (word >= u_words) break;
    uint pw = u_first ? 0u : previous_luma[word];
    uint rw = u_first ? 0u : reference_luma[word];
    uint cw = 0u;
    for (uint j = 0u; j < 4u; ++j) {
      uint i = word * 4u + j;
      if (i >= pixels) break;
      uint y = lumaAt(i);
      uint p = u_first ? y : (pw >> (8u * j)) & 255u;
      uint r = u_first ? y : (rw >> (8u * j)) & 255u;
      cw |= y << (8u * j);
      sad_previous += uint(abs(int(y) - int(p)));
      sad_reference += uint(abs(int(y) - int(r)));
      int m = fullRange(y) - fullRange(p);
      motion += m;
      squares += uint(m * m);
      atomicAdd(s_hist[y], 1u);
    }
    current_luma[word] = cw;
  }
  s_sad_previous[lid] = sad_previous;
  s_sad_reference[lid] = sad_reference;
  s_motion[lid] = motion;
  s_squares[lid] = squares;
  barrier();
  for (uint stride = uint(WG_SIZE) / 2u; stride > 0u; stride >>= 1) {
    if (lid < stride) {
      s_sad_previous[lid] += s_sad_previous[lid + stride];
      s_sad_reference[lid] += s_sad_reference[lid + stride];
      s_motion[lid] += s_motion[lid + stride];
      s_squares[lid] += s_squares[lid + stride];
    }
    barrier();
  }
  if (lid == 0u) {
    uint o = 256u + gl_WorkGroupID.x * 4u;
    result[o] = s_sad_previous[0];
    result[o + 1u] = s_sad_reference[0];
    result[o + 2u] = uint(s_motion[0]);
    result[o + 3u] = s_squares[0];
  }
  for (uint b = lid; b < 256u; b += uint(WG_SIZE)) {
    if (s_hist[b] != 0u) atomicAdd(result[b], s_hist[b]);
  }
}
