// 256 invocations in one workgroup: more than Mali-T860's 128 (and GLES 3.1's minimum). Used by
// tests/boards to show `esframe programs --shader` fails on a driver that refuses it.
layout(local_size_x = 256) in;
layout(std430, binding = 0) buffer Data { uint data[]; };

void main() {
  data[gl_GlobalInvocationID.x] += 1u;
}
