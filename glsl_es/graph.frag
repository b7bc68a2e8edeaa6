// The histogram graph (seed histogram part 2). Per pixel: the bin from texcoord.x, per channel
// height = counts[bin] * scale, a 4-bit mask of the channels whose height is above texcoord.y,
// and that mask picks one of 16 colours.
//
// Exactness: texcoord is evaluated at the pixel centre from gl_FragCoord (not interpolated), and
// the bin is integer arithmetic: bin = ((2x + 1) * BINS) / (2 * width) = floor(texcoord.x * BINS).
// The comparison height > texcoord.y is done as counts * scale * height_px > row + 0.5, each
// product a single IEEE float multiply, so the CPU reference (graph_reference.cpp) matches it.
//
// Counts and scales arrive as textures (a GPU-side copy of the histogram and scale buffers):
// fragment-shader storage blocks are optional in GLES 3.1 and absent on some embedded GPUs.
#ifndef BINS
#define BINS 256
#endif
#ifndef CHANNELS
#define CHANNELS 4
#endif

uniform highp usampler2D counts;  // R32UI, BINS * CHANNELS x 1, counts[bin * CHANNELS + c]
// R32UI, 4 * CHANNELS x 1: the scale stage's buffer, { maxCount, numerator, denominator,
// float scale } per channel (core/stages/scale.hpp); the float is word 3.
uniform highp usampler2D scales;
uniform ivec2 size;               // the viewport in pixels
uniform ivec2 origin;             // its lower-left corner in window coordinates
uniform uint channel_bit[4];      // the mask bit of each channel (r 1, g 2, b 4, l 8)
uniform vec4 colors[16];

in vec2 texcoord;  // interpolated, unused: the exact pixel-centre value is rebuilt below
out vec4 color;

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy) - origin;
  int bin = clamp(((2 * p.x + 1) * BINS) / (2 * size.x), 0, BINS - 1);
  float row_centre = float(p.y) + 0.5;  // texcoord.y * size.y at the pixel centre
  uint mask = 0u;
  for (int c = 0; c < CHANNELS; ++c) {
    float height = float(texelFetch(counts, ivec2(bin * CHANNELS + c, 0), 0).r) *
                   uintBitsToFloat(texelFetch(scales, ivec2(4 * c + 3, 0), 0).r);
    if (height * float(size.y) > row_centre) mask |= channel_bit[c];
  }
  color = colors[int(mask)];
}
