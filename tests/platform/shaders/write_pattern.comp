// Test shader: word i of the output becomes i * MULTIPLIER + OFFSET.
layout(local_size_x = 64) in;
layout(std430, binding = 0) writeonly buffer Out { uint words[]; };
uniform uint u_count;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < u_count) words[i] = i * uint(MULTIPLIER) + uint(OFFSET);
}
