#include "core/stats/blockdetect.hpp"

#include <cstdlib>

#include "esframe/base/sizes.hpp"

namespace esf {
namespace {

// ffmpeg's FFMAX, whose operand order decides what a NaN gives.
float larger(float a, float b) {
  return a > b ? a : b;
}

}  // namespace

float BlockDetector::planeBlockiness(const FfmpegPlane& plane) {
  const int w = plane.width, h = plane.height;
  const ptrdiff_t s = w;
  const uint8_t* src = plane.samples.data();
  float* grad = gradients_.data();
  auto difference = [&](ptrdiff_t a, ptrdiff_t b) { return std::abs(src[a] - src[b]); };
  float ret = 0;

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
  for (int period = config_.period_min; period < config_.period_max + 1; ++period) {
    float block = 0, nonblock = 0;
    int block_count = 0, nonblock_count = 0;
    for (int i = 3; i < w - 4; ++i) {
      if (i % period == period - 1) {
        block += larger(larger(grad[i], grad[i + 1]), grad[i - 1]);
        ++block_count;
      } else {
        nonblock += grad[i];
        ++nonblock_count;
      }
    }
    if (block_count && nonblock_count)
      ret = larger(ret, (block / float(block_count)) / (nonblock / float(nonblock_count)));
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
  for (int period = config_.period_min; period < config_.period_max + 1; ++period) {
    float block = 0, nonblock = 0;
    int block_count = 0, nonblock_count = 0;
    for (int j = 3; j < h - 4; ++j) {
      if (j % period == period - 1) {
        block += larger(larger(grad[j * s], grad[(j + 1) * s]), grad[(j - 1) * s]);
        ++block_count;
      } else {
        nonblock += grad[j * s];
        ++nonblock_count;
      }
    }
    if (block_count && nonblock_count)
      ret = larger(ret, (block / float(block_count)) / (nonblock / float(nonblock_count)));
  }
  return ret;
}

float BlockDetector::detect(const FfmpegPlanes& frame) {
  const FfmpegPlane& first = frame.planes[0];
  if (first.width != width_ || first.height != height_) {
    width_ = first.width;
    height_ = first.height;
    gradients_.assign(saturatingSize(width_, height_), 0.0f);  // within the frame's own size
  }
  float block = 0.0f;
  int planes = 0;
  for (size_t p = 0; p < frame.planes.size(); ++p) {
    if (!((1 << p) & config_.planes)) continue;
    ++planes;
    block += planeBlockiness(frame.planes[p]);
  }
  if (planes) block /= float(planes);
  return block;
}

}  // namespace esf
