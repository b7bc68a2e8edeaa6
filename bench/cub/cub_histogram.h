#pragma once
// CUB's DeviceHistogram::MultiHistogramEven<4,4> over one RGBA8 frame, timed with CUDA events.
// A plain C++ interface, so no CUDA header reaches the rest of the bench.
#include <cstddef>
#include <cstdint>

namespace esf::bench::cuda {

// The CUDA device's name, or false with `error` filled (no driver, no device).
bool deviceName(char* name, size_t name_len, char* error, size_t error_len);
// Copies the frame to the device once (not timed), runs `warmup` untimed then `iterations`
// timed histograms, each bracketed by its own event pair. samples_ms gets `iterations` times;
// counts gets 256 * 4 words, counts[bin * 4 + c], c = R G B A. False with `error` on failure.
bool multiHistogramEven(const uint8_t* rgba, int width, int height, int warmup, int iterations,
                        double* samples_ms, uint32_t* counts, char* error, size_t error_len);

}  // namespace esf::bench::cuda
