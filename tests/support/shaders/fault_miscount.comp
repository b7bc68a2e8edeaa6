// A deliberately wrong driver, for the tests of `esframe selftest` (ESFRAME_FAULT_INJECTION
// builds, ESFRAME_TEST_GPU_FAULT=histogram): one more count in word 0 of a histogram's output,
// after the stage has written it, as a miscounting driver would leave it.
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Bins { uint bins[]; };

void main() { bins[0] += 1u; }
