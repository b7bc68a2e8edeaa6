#include "core/stats/blockdetect.hpp"

#include <cstdlib>

#include "esframe/base/sizes.hpp"

namespace esf {
namespace {

// ffmpeg's FFMAX, whose operand order decides what a NaN gives.
float larger(float a, float b) {
  return a > b ? a : b;
}

// One line's largest block-to-nonblock ratio over the periods, against `ret` (ffmpeg's loop over
// row 0, or column 0, of its gradients).
float lineBlockiness(const BlockDetectConfig& config, float ret, const float* line,
                     ptrdiff_t stride, int length) {
  for (int period = config.period_min; period < config.period_max + 1; ++period) {
    float block = 0, nonblock = 0;
    int block_count = 0, nonblock_count = 0;
    for (int i = 3; i < length - 4; ++i) {
      if (i % period == period - 1) {
        block += larger(larger(line[i * stride], line[(i + 1) * stride]), line[(i - 1) * stride]);
        ++block_count;
      } else {
        nonblock += line[i * stride];
        ++nonblock_count;
      }
    }
    if (block_count && nonblock_count)
      ret = larger(ret, (block / float(block_count)) / (nonblock / float(nonblock_count)));
  }
  return ret;
}

}  // namespace

float blockinessOfSums(const BlockDetectConfig& config, const float* row, ptrdiff_t row_stride,
                       int w, const float* column, ptrdiff_t column_stride, int h) {
  const float ret = lineBlockiness(config, 0.0f, row, row_stride, w);
  return lineBlockiness(config, ret, column, column_stride, h);
}

float meanOfPlanes(std::span<const float> plane_figures) {
  float block = 0.0f;
  for (float f : plane_figures) block += f;
  if (!plane_figures.empty()) block /= float(plane_figures.size());
  return block;
}

float BlockDetector::planeBlockiness(const FfmpegPlane& plane) {
  const int w = plane.width, h = plane.height;
  const ptrdiff_t s = w;
  const uint8_t* src = plane.samples.data();
  float* grad = gradients_.data();
  auto difference = [&](ptrdiff_t a, ptrdiff_t b) { return std::abs(src[a] - src[b]); };

  // Horizontal: each pixel's step to the right over the six steps around it, summed into row 0.
  for (int j = 1; j < h; ++j) {
    for (int i = 3; i < w - 4; ++i) {
      const ptrdiff_t p = j * s + i;
      float temp = 0.0f;
      grad[p] = float(difference(p, p + 1));
      temp += float(difference(p + 1, p + 2));
      temp += float(difference(p + 2, p + 3));
      temp += float(difference(p + 3, p + 4));
      temp += float(difference(p, p - 1));
      temp += float(difference(p - 1, p - 2));
      temp += float(difference(p - 2, p - 3));
      temp = 1 > temp ? 1.0f : temp;
      grad[p] /= temp;
      grad[i] += grad[p];
    }
  }
  // Vertical: each pixel's step down over the six steps around it, summed into column 0.
  for (int j = 3; j < h - 4; ++j) {
    for (int i = 1; i < w; ++i) {
      const ptrdiff_t p = j * s + i;
      float temp = 0.0f;
      grad[p] = float(difference(p, p + s));
      temp += float(difference(p + s, p + 2 * s));
      temp += float(difference(p + 2 * s, p + 3 * s));
      temp += float(difference(p + 3 * s, p + 4 * s));
      temp += float(difference(p, p - s));
      temp += float(difference(p - s, p - 2 * s));
      temp += float(difference(p - 2 * s, p - 3 * s));
      temp = 1 > temp ? 1.0f : temp;
      grad[p] /= temp;
      grad[j * s] += grad[p];
    }
  }
  // Neither pass writes the other's line (row 0 holds indices below s, the vertical pass writes
  // rows 3 and on), so both lines' ratios can be taken after both passes.
  return blockinessOfSums(config_, grad, 1, w, grad, s, h);
}

float BlockDetector::detect(const FfmpegPlanes& frame) {
  const FfmpegPlane& first = frame.planes[0];
  if (first.width != width_ || first.height != height_) {
    width_ = first.width;
    height_ = first.height;
    gradients_.assign(saturatingSize(width_, height_), 0.0f);  // within the frame's own size
  }
  std::vector<float> figures;
  for (size_t p = 0; p < frame.planes.size(); ++p)
    if ((1 << p) & config_.planes) figures.push_back(planeBlockiness(frame.planes[p]));
  return meanOfPlanes(figures);
}

}  // namespace esf
