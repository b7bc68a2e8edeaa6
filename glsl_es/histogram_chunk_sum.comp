// chunk-sum (seed step 3): one invocation per output word sums that word over all chunks.
// Chunk k occupies words [k * WORDS, (k + 1) * WORDS) of `chunks`.
#ifndef WORDS
#define WORDS 1024
#endif
#ifndef WG_X
#define WG_X 256
#endif
layout(local_size_x = WG_X) in;
layout(std430, binding = 0) readonly buffer Chunks { uint chunks[]; };
layout(std430, binding = 1) writeonly buffer Bins { uint bins[]; };
uniform uint u_chunk_count;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= uint(WORDS)) return;
  uint sum = 0u;
  for (uint k = 0u; k < u_chunk_count; ++k) sum += chunks[k * uint(WORDS) + i];
  bins[i] = sum;
}
