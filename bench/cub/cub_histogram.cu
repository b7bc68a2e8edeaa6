#include <cuda_runtime.h>
#include <cub/device/device_histogram.cuh>

#include <cstdio>
#include <vector>

#include "bench/cub/cub_histogram.h"

namespace esf::bench::cuda {
namespace {

// Owns every device allocation and event of one measurement.
struct Resources {
  unsigned char* frame = nullptr;
  unsigned int* hist[4] = {nullptr, nullptr, nullptr, nullptr};
  void* temp = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  ~Resources() {
    cudaFree(frame);
    for (unsigned int* h : hist) cudaFree(h);
    cudaFree(temp);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
  }
};

bool check(cudaError_t e, const char* what, char* error, size_t len) {
  if (e == cudaSuccess) return true;
  std::snprintf(error, len, "CUDA %s: %s", what, cudaGetErrorString(e));
  return false;
}

}  // namespace

bool deviceName(char* name, size_t name_len, char* error, size_t error_len) {
  int count = 0;
  if (!check(cudaGetDeviceCount(&count), "cudaGetDeviceCount", error, error_len)) return false;
  if (count == 0) {
    std::snprintf(error, error_len, "no CUDA device");
    return false;
  }
  cudaDeviceProp prop{};
  if (!check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties", error, error_len))
    return false;
  std::snprintf(name, name_len, "%s", prop.name);
  return true;
}

bool multiHistogramEven(const uint8_t* rgba, int width, int height, int warmup, int iterations,
                        double* samples_ms, uint32_t* counts, char* error, size_t len) {
  Resources r;
  const size_t pixels = size_t(width) * size_t(height);
  int levels[4] = {257, 257, 257, 257};
  unsigned int lower[4] = {0, 0, 0, 0}, upper[4] = {256, 256, 256, 256};
  if (!check(cudaMalloc(&r.frame, pixels * 4), "cudaMalloc frame", error, len)) return false;
  for (auto& h : r.hist)
    if (!check(cudaMalloc(&h, 256 * sizeof(unsigned int)), "cudaMalloc histogram", error, len))
      return false;
  if (!check(cudaMemcpy(r.frame, rgba, pixels * 4, cudaMemcpyHostToDevice), "upload", error, len))
    return false;
  size_t temp_bytes = 0;
#if CUB_VERSION >= 300000  // CUB 3 deprecates the pointer overload for cuda::std::array
  ::cuda::std::array<unsigned int*, 4> hist{r.hist[0], r.hist[1], r.hist[2], r.hist[3]};
  ::cuda::std::array<int, 4> num_levels{levels[0], levels[1], levels[2], levels[3]};
  ::cuda::std::array<unsigned int, 4> lo{lower[0], lower[1], lower[2], lower[3]};
  ::cuda::std::array<unsigned int, 4> hi{upper[0], upper[1], upper[2], upper[3]};
#else
  unsigned int** hist = r.hist;
  int* num_levels = levels;
  unsigned int* lo = lower;
  unsigned int* hi = upper;
#endif
  auto run = [&](void* temp) {
    return cub::DeviceHistogram::MultiHistogramEven<4, 4>(
        temp, temp_bytes, r.frame, hist, num_levels, lo, hi, static_cast<int>(pixels));
  };
  if (!check(run(nullptr), "MultiHistogramEven (size query)", error, len)) return false;
  if (!check(cudaMalloc(&r.temp, temp_bytes), "cudaMalloc temp", error, len)) return false;
  if (!check(cudaEventCreate(&r.start), "cudaEventCreate", error, len)) return false;
  if (!check(cudaEventCreate(&r.stop), "cudaEventCreate", error, len)) return false;
  for (int i = 0; i < warmup; ++i)
    if (!check(run(r.temp), "MultiHistogramEven", error, len)) return false;
  for (int i = 0; i < iterations; ++i) {
    cudaEventRecord(r.start);
    if (!check(run(r.temp), "MultiHistogramEven", error, len)) return false;
    cudaEventRecord(r.stop);
    if (!check(cudaEventSynchronize(r.stop), "cudaEventSynchronize", error, len)) return false;
    float ms = 0;
    cudaEventElapsedTime(&ms, r.start, r.stop);
    samples_ms[i] = ms;
  }
  if (!check(cudaGetLastError(), "launch", error, len)) return false;
  std::vector<unsigned int> h(256);
  for (int c = 0; c < 4; ++c) {
    if (!check(cudaMemcpy(h.data(), r.hist[c], 256 * sizeof(unsigned int), cudaMemcpyDeviceToHost),
               "download", error, len))
      return false;
    for (int bin = 0; bin < 256; ++bin) counts[bin * 4 + c] = h[bin];
  }
  return true;
}

}  // namespace esf::bench::cuda
