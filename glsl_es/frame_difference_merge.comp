// The frame difference's merge (core/stages/frame_difference.hpp): workgroup w adds records
// [CHUNK w, CHUNK (w + 1)) of u_count (264 words each: 256 histogram counts, then four 64-bit
// sums as (low, high) pairs in two's complement) into record w of the output. The host runs it
// until one record is left: the result. A workgroup's invocations each loop over at most CHUNK
// records, so the merge keeps the GPU busy instead of one workgroup walking every partial.
#ifndef WG_SIZE
#define WG_SIZE 256
#endif
#ifndef CHUNK
#define CHUNK 16
#endif
layout(local_size_x = WG_SIZE) in;
uniform uint u_count;
layout(std430, binding = 0) readonly buffer Records { uint records[]; };
layout(std430, binding = 1) writeonly buffer Merged { uint merged[]; };

void main() {
  uint lid = gl_LocalInvocationID.x;
  uint first = gl_WorkGroupID.x * uint(CHUNK);
  uint last = min(u_count, first + uint(CHUNK));
  uint out_at = gl_WorkGroupID.x * 264u;
  for (uint b = lid; b < 256u; b += uint(WG_SIZE)) {
    uint count = 0u;
    for (uint r = first; r < last; ++r) count += records[r * 264u + b];
    merged[out_at + b] = count;
  }
  if (lid < 4u) {
    uint lo = 0u, hi = 0u;
    for (uint r = first; r < last; ++r) {
      uint carry;
      lo = uaddCarry(lo, records[r * 264u + 256u + 2u * lid], carry);
      hi += records[r * 264u + 257u + 2u * lid] + carry;
    }
    merged[out_at + 256u + 2u * lid] = lo;
    merged[out_at + 257u + 2u * lid] = hi;
  }
}
