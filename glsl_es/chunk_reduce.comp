// One pass of the chunk reduce (core/stages/chunk_reduce.hpp): workgroup w adds chunk
// (w * 2 * u_stride + u_stride) into chunk (w * 2 * u_stride), every word of it.
#ifndef WORDS
#define WORDS 1024
#endif
#ifndef WG_X
#define WG_X 256
#endif
layout(local_size_x = WG_X) in;
layout(std430, binding = 0) buffer Chunks { uint chunks[]; };
uniform uint u_stride;

void main() {
  uint chunk0 = gl_WorkGroupID.x * u_stride * 2u;
  uint chunk1 = chunk0 + u_stride;
  for (uint i = gl_LocalInvocationIndex; i < uint(WORDS); i += uint(WG_X))
    chunks[chunk0 * uint(WORDS) + i] += chunks[chunk1 * uint(WORDS) + i];
}
