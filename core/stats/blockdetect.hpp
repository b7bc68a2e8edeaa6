#pragma once
// ffmpeg 5.1's blockdetect on the host (esframe/detectors.hpp, docs/output-formats.md,
// "Detectors"): each column's (row's) normalised gradient summed down the frame, and the largest
// ratio of the sums on a period_min..period_max grid to those between. In ffmpeg's float
// arithmetic and order (no fused multiply-add: CMakeLists.txt), so the figure is ffmpeg's float.
#include <cstddef>
#include <span>
#include <vector>

#include "core/stats/ffmpeg_planes.hpp"
#include "esframe/detectors.hpp"

namespace esf {

// A plane's figure from its gradient sums as ffmpeg leaves them: row 0's w values (the columns'
// sums, at `row` + i * row_stride) and column 0's h values (the rows' sums, at `column` + j *
// column_stride); the largest block-to-nonblock ratio over the periods, row 0's before column
// 0's (FFMAX's order decides what a NaN gives). BlockDetector and the GPU's path
// (core/stages/block_detect.hpp) both take their figures from here.
float blockinessOfSums(const BlockDetectConfig& config, const float* row, ptrdiff_t row_stride,
                       int w, const float* column, ptrdiff_t column_stride, int h);
// The frame's figure from its planes' (those in the config's `planes`), as ffmpeg averages them.
float meanOfPlanes(std::span<const float> plane_figures);

class BlockDetector {
 public:
  explicit BlockDetector(const BlockDetectConfig& config) : config_(config) {}
  float detect(const FfmpegPlanes& frame);

 private:
  float planeBlockiness(const FfmpegPlane& plane);

  BlockDetectConfig config_;
  int width_ = -1, height_ = -1;
  // ffmpeg keeps the gradients for the filter's life, sized for plane 0 and laid out at each
  // plane's width, and sums the columns into row 0 and the rows into column 0 without clearing
  // them: those sums carry every earlier frame's (and plane's), and so does the figure.
  std::vector<float> gradients_;
};

}  // namespace esf
