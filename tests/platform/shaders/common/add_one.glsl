// Test include: three lines of valid code.
uint addOne(uint x) {
  return x + 1u;
}
