// Test shader: the error is on line 4 of the file it includes.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
#include "common/stray_call.glsl"
void main() { words[0] = strayCall(); }
