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

// A threshold (a fraction of 255) in 8-bit units, as ffmpeg rounds it.
uint8_t blurThreshold(float fraction);
// A diagonal edge's width of k pixel steps in pixel units: 0.7 ~= sqrt(2) / 2, multiplied in
// double as ffmpeg does.
inline float diagonalWidth(int k) {
  return float(double(float(k)) * 0.7);
}

// A plane's block grid: blocks of the configured size (the plane's own size for -1; chroma
// sizes rounded up by the shift), whole blocks only.
struct BlurBlocks {
  int width = 0, height = 0;  // samples
  int rows = 0, columns = 0;
};
BlurBlocks blurBlocksOf(const BlurDetectConfig& config, int plane0_width, int plane0_height,
                        int plane_width, int plane_height, int shift_x, int shift_y);

// The half of blurdetect after the edge widths: each block's mean width where it has enough
// edge (ffmpeg's `total >= 2 && edge_pixels`), and the mean of the block_pct percent sharpest.
// The reference and the GPU path (core/stages/blur_detect.hpp) both use it.
class SharpestBlocks {
 public:
  void begin(size_t blocks);                // a plane of up to `blocks` blocks
  void add(double total, int edge_pixels);  // a block's sum of widths and its edge pixels
  float mean(int block_pct);                // the plane's figure; NaN without a block
 private:
  std::vector<float> widths_;
  size_t count_ = 0;
};

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
  // ffmpeg keeps these for the filter's life, sized for plane 0 and laid out at each plane's own
  // width; the gradients outside a plane's interior are those an earlier plane or frame left,
  // which non-maximum suppression reads at the interior's edge.
  std::vector<uint8_t> smoothed_, edges_;
  std::vector<uint16_t> gradients_;
  std::vector<int8_t> directions_;
  SharpestBlocks blocks_;
};

}  // namespace esf
