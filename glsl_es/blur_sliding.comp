// The box blur pass as a sliding window (core/stages/blur.hpp, strategy "sliding"): each
// invocation owns SEGMENT consecutive outputs of one line along the filter direction and keeps a
// running integer sum of the FILTER_DIM taps, so an output costs one add and one subtract per
// channel whatever the tap count. Segments keep the work parallel: a line of W texels is
// ceil(W / SEGMENT) invocations (workgroup y), WG_X neighbouring lines per workgroup (x).
// u_flip swaps x and y, so the same code runs the vertical pass; there neighbouring invocations
// read neighbouring texels of a row.
// Bit-exact with the CPU reference: the sum of the clamped taps is exact in any order, and
// each output is (sum + FILTER_DIM / 2) / FILTER_DIM; A is carried through from the centre.
#ifndef SEGMENT
#define SEGMENT 64
#endif
#ifndef WG_X
#define WG_X 64
#endif
#ifndef FILTER_DIM
#define FILTER_DIM 15
#endif
layout(local_size_x = WG_X) in;
uniform highp sampler2D u_image;
layout(rgba8, binding = 0) writeonly uniform highp image2D u_out;
uniform int u_flip;

const int OFFSET = (FILTER_DIM - 1) / 2;

void main() {
  ivec2 dims = textureSize(u_image, 0);
  bool flip = u_flip != 0;
  ivec2 pass_dims = flip ? dims.yx : dims;  // x runs along the filter
  int line = int(gl_GlobalInvocationID.x);
  int x0 = int(gl_WorkGroupID.y) * SEGMENT;
  if (line >= pass_dims.y || x0 >= pass_dims.x) return;
  int last = pass_dims.x - 1;
  int x1 = min(x0 + SEGMENT, pass_dims.x);
  // The window of output x0, clamped to the edge (texelFetch outside the image is undefined).
  uvec3 sum = uvec3(0u);
  for (int f = -OFFSET; f <= OFFSET; ++f) {
    ivec2 q = ivec2(clamp(x0 + f, 0, last), line);
    sum += uvec3(texelFetch(u_image, flip ? q.yx : q, 0).rgb * 255.0 + 0.5);
  }
  for (int x = x0; x < x1; ++x) {
    ivec2 q = ivec2(x, line);
    ivec2 o = flip ? q.yx : q;
    uint alpha = uint(texelFetch(u_image, o, 0).a * 255.0 + 0.5);
    uvec3 rgb = (sum + uint(FILTER_DIM / 2)) / uint(FILTER_DIM);
    imageStore(u_out, o, vec4(uvec4(rgb, alpha)) / 255.0);
    // Slide: add the tap entering at x + OFFSET + 1, then drop the one leaving at x - OFFSET
    // (adding first keeps the unsigned sum from going below zero).
    ivec2 head = ivec2(min(x + OFFSET + 1, last), line);
    ivec2 tail = ivec2(max(x - OFFSET, 0), line);
    sum += uvec3(texelFetch(u_image, flip ? head.yx : head, 0).rgb * 255.0 + 0.5);
    sum -= uvec3(texelFetch(u_image, flip ? tail.yx : tail, 0).rgb * 255.0 + 0.5);
  }
}
