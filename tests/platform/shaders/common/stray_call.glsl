// Test include: a function whose body calls nothing defined, on line 4.
uint strayCall() {
  uint x = 1u;
  return x + undefined_function_on_line_4();
}
