// Test shader: a file included twice above the error on line 7, which keeps its line number.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
#include "common/add_one.glsl"
#include "common/add_one.glsl"
void main() {
  words[0] = addOne(undefined_symbol_on_line_7);
}
