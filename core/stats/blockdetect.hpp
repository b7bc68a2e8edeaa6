#pragma once
// ffmpeg 5.1's blockdetect on the host (esframe/detectors.hpp, docs/output-formats.md,
// "Detectors"): each column's (row's) normalised gradient summed down the frame, and the largest
// ratio of the sums on a period_min..period_max grid to those between. In ffmpeg's float
// arithmetic and order (no fused multiply-add: CMakeLists.txt), so the figure is ffmpeg's float.
#include <vector>

#include "core/stats/ffmpeg_planes.hpp"
#include "esframe/detectors.hpp"

namespace esf {

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
