#pragma once
// The peers the bench compares esframe with, in the same run on the same frame:
//   OpenCV (optional, bench-only): calcHist R, G, B plus cvtColor + calcHist gray; blur 15x15;
//     resize INTER_AREA. Built when find_package(OpenCV) finds it.
//   CUB DeviceHistogram::MultiHistogramEven<4,4> (R, G, B, A; no luma): built when nvcc is
//     found, run when a CUDA device is present. The frame is on the GPU before timing starts.
// Each returns an error naming why it cannot run (not built in, no device).
#include <cstdint>
#include <string>
#include <vector>

#include "core/tuning/measure.hpp"
#include "esframe/base/result.hpp"
#include "esframe/rgba_image.hpp"

namespace esf::bench {

std::string opencvInfo();  // "OpenCV 4.6.0, 2 threads" or why it is missing
// calcHist R, G, B and cvtColor(RGBA2GRAY) + calcHist gray, 256 bins each. rgb_counts gets
// R, G, B counts as counts[bin * 3 + c] (for the equality check against esframe).
Result<TimingStats> opencvHistogram(const RgbaImage& frame, const MeasureOptions& o,
                                    std::vector<uint32_t>* rgb_counts);
Result<TimingStats> opencvBlur(const RgbaImage& frame, int ksize, const MeasureOptions& o);
Result<TimingStats> opencvResizeArea(const RgbaImage& frame, int w, int h, const MeasureOptions& o);

std::string cubInfo();  // "CUB 3.0 on NVIDIA H200" or why it is missing
// rgba_counts gets counts[bin * 4 + c], c = R G B A.
Result<TimingStats> cubHistogram(const RgbaImage& frame, const MeasureOptions& o,
                                 std::vector<uint32_t>* rgba_counts);

}  // namespace esf::bench
