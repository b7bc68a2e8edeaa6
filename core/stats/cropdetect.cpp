#include "core/stats/cropdetect.hpp"

#include <algorithm>
#include <cmath>

namespace esf {

CropDetector::CropDetector(const CropDetectConfig& config)
    : config_(config), round_(config.round), frame_number_(-config.skip) {
  // ffmpeg makes the rounding usable once, at its first frame: at least 2, and even.
  if (round_ <= 1) round_ = 16;
  if (round_ % 2) round_ *= 2;
}

int CropDetector::lineMean(const FfmpegPlanes& frame, bool columns, int index) const {
  const int length = columns ? height_ : width_;
  const size_t components = frame.rgb ? 3 : 1;
  int64_t total = 0;
  for (size_t p = 0; p < components; ++p) {
    const FfmpegPlane& plane = frame.planes[p];
    for (int i = 0; i < length; ++i) total += columns ? plane.at(index, i) : plane.at(i, index);
  }
  return int(total / (int64_t(length) * int64_t(components)));
}

std::optional<CropDetectFigures> CropDetector::detect(const FfmpegPlanes& frame) {
  const FfmpegPlane& first = frame.planes[0];
  if (first.width != width_ || first.height != height_) {
    width_ = first.width;
    height_ = first.height;
    x1_ = width_ - 1;
    y1_ = height_ - 1;
    x2_ = 0;
    y2_ = 0;
  }
  if (++frame_number_ <= 0) return std::nullopt;
  if (config_.reset > 0 && frame_number_ > config_.reset) {
    x1_ = width_ - 1;
    y1_ = height_ - 1;
    x2_ = 0;
    y2_ = 0;
    frame_number_ = 1;
  }
  // ffmpeg scales a limit below 1 by the depth's maximum in float, then rounds half to even.
  float limit_scaled = config_.limit;
  if (limit_scaled < 1.0) limit_scaled *= 255;
  const long limit = std::lrint(limit_scaled);
  // From `from` towards `end` (exclusive, moving by `step`): the edge moves to the last line
  // before the (max_outliers + 1)th line brighter than the limit; unchanged when none is.
  auto find = [&](int& edge, int from, auto before_end, int step, bool columns) {
    int outliers = 0, last = from;
    for (int line = from; before_end(line); line += step) {
      if (lineMean(frame, columns, line) > limit) {
        if (++outliers > config_.max_outliers) {
          edge = last;
          break;
        }
      } else {
        last = line + step;
      }
    }
  };
  find(
      y1_, 0, [&](int y) { return y < y1_; }, 1, false);
  find(
      y2_, height_ - 1, [&](int y) { return y > std::max(y2_, y1_); }, -1, false);
  find(
      x1_, 0, [&](int x) { return x < x1_; }, 1, true);
  find(
      x2_, width_ - 1, [&](int x) { return x > std::max(x2_, x1_); }, -1, true);

  CropDetectFigures f;
  f.x1 = x1_, f.x2 = x2_, f.y1 = y1_, f.y2 = y2_;
  // The corner rounded up to even, then the size down to a multiple of the rounding, the corner
  // moving by half what was cut (rounded to even).
  f.x = (x1_ + 1) & ~1;
  f.y = (y1_ + 1) & ~1;
  f.w = x2_ - f.x + 1;
  f.h = y2_ - f.y + 1;
  int shrink = f.w % round_;
  f.w -= shrink;
  f.x += (shrink / 2 + 1) & ~1;
  shrink = f.h % round_;
  f.h -= shrink;
  f.y += (shrink / 2 + 1) & ~1;
  return f;
}

}  // namespace esf
