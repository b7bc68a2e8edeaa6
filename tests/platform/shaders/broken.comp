// Test shader with a deliberate error on line 5.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint words[]; };
void main() {
  words[0] = undefined_symbol_on_line_5;
}
