#pragma once
// ffmpeg 5.1's blurdetect on the host (esframe/detectors.hpp, docs/output-formats.md,
// "Detectors"): Canny's edges (5x5 Gaussian, Sobel, non-maximum suppression, double threshold),
// each edge pixel's width between the extrema around it, and the mean width of the sharpest
// blocks. Every step in ffmpeg's integer and float arithmetic, in its order (no fused
// multiply-add: CMakeLists.txt), so the figure is ffmpeg's float.
#include <cstdint>
#include <vector>

#include "core/stats/ffmpeg_planes.hpp"
#include "esframe/detectors.hpp"

namespace esf {

class BlurDetector {
 public:
  explicit BlurDetector(const BlurDetectConfig& config);
  float detect(const FfmpegPlanes& frame);

 private:
  float planeBlur(const FfmpegPlane& plane, int shift_x, int shift_y);
  float edgeWidth(int x, int y, int direction, int width, int height) const;

  BlurDetectConfig config_;
  uint8_t low_, high_;  // the thresholds in 8-bit units
  int width_ = -1, height_ = -1;
  int block_width_ = 0, block_height_ = 0;
  // ffmpeg keeps these for the filter's life, sized for plane 0 and laid out at each plane's own
  // width; the gradients outside a plane's interior are those an earlier plane or frame left,
  // which non-maximum suppression reads at the interior's edge.
  std::vector<uint8_t> smoothed_, edges_;
  std::vector<uint16_t> gradients_;
  std::vector<int8_t> directions_;
  std::vector<float> blocks_;
};

}  // namespace esf
