#include "core/stats/blurdetect.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "esframe/base/sizes.hpp"

namespace esf {
namespace {

// ffmpeg's edge_common.h directions.
enum Direction : int8_t { k45Up, k45Down, kHorizontal, kVertical };

int8_t roundedDirection(int gx, int gy) {
  // Gy / Gx against tan(pi/8) and tan(3pi/8) in 16-bit fixed point.
  if (gx) {
    if (gx < 0) gx = -gx, gy = -gy;
    gy *= 1 << 16;
    const int tan_pi8 = 27146 * gx, tan_3pi8 = 158218 * gx;
    if (gy > -tan_3pi8 && gy < -tan_pi8) return k45Up;
    if (gy > -tan_pi8 && gy < tan_pi8) return kHorizontal;
    if (gy > tan_pi8 && gy < tan_3pi8) return k45Down;
  }
  return kVertical;
}

// The 5x5 Gaussian of sigma 1.4 in integers over 159; two rows and columns at each edge copied.
void gaussian(int w, int h, uint8_t* dst, const uint8_t* src) {
  const size_t s = size_t(w);
  auto at = [&](int y, int x) { return int(src[size_t(y) * s + size_t(x)]); };
  std::memcpy(dst, src, 2 * s);
  for (int y = 2; y < h - 2; ++y) {
    uint8_t* out = dst + size_t(y) * s;
    out[0] = uint8_t(at(y, 0));
    out[1] = uint8_t(at(y, 1));
    for (int x = 2; x < w - 2; ++x) {
      out[x] = uint8_t(
          ((at(y - 2, x - 2) + at(y + 2, x - 2)) * 2 + (at(y - 2, x - 1) + at(y + 2, x - 1)) * 4 +
           (at(y - 2, x) + at(y + 2, x)) * 5 + (at(y - 2, x + 1) + at(y + 2, x + 1)) * 4 +
           (at(y - 2, x + 2) + at(y + 2, x + 2)) * 2 + (at(y - 1, x - 2) + at(y + 1, x - 2)) * 4 +
           (at(y - 1, x - 1) + at(y + 1, x - 1)) * 9 + (at(y - 1, x) + at(y + 1, x)) * 12 +
           (at(y - 1, x + 1) + at(y + 1, x + 1)) * 9 + (at(y - 1, x + 2) + at(y + 1, x + 2)) * 4 +
           at(y, x - 2) * 5 + at(y, x - 1) * 12 + at(y, x) * 15 + at(y, x + 1) * 12 +
           at(y, x + 2) * 5) /
          159);
    }
    out[w - 2] = uint8_t(at(y, w - 2));
    out[w - 1] = uint8_t(at(y, w - 1));
  }
  std::memcpy(dst + size_t(h - 2) * s, src + size_t(h - 2) * s, 2 * s);
}

// Sobel magnitudes |gx| + |gy| and rounded directions of the interior.
void sobel(int w, int h, uint16_t* gradients, int8_t* directions, const uint8_t* src) {
  const size_t s = size_t(w);
  for (int y = 1; y < h - 1; ++y) {
    const uint8_t* up = src + size_t(y - 1) * s;
    const uint8_t* row = src + size_t(y) * s;
    const uint8_t* down = src + size_t(y + 1) * s;
    for (int x = 1; x < w - 1; ++x) {
      const int gx =
          -up[x - 1] + up[x + 1] - 2 * row[x - 1] + 2 * row[x + 1] - down[x - 1] + down[x + 1];
      const int gy = -up[x - 1] + down[x - 1] - 2 * up[x] + 2 * down[x] - up[x + 1] + down[x + 1];
      gradients[size_t(y) * s + size_t(x)] = uint16_t(std::abs(gx) + std::abs(gy));
      directions[size_t(y) * s + size_t(x)] = roundedDirection(gx, gy);
    }
  }
}

// Keeps the interior gradients above both neighbours across the edge, clipped to 8 bits.
void nonMaximumSuppression(int w, int h, uint8_t* dst, const int8_t* directions,
                           const uint16_t* gradients) {
  const ptrdiff_t s = w;
  for (int y = 1; y < h - 1; ++y) {
    for (int x = 1; x < w - 1; ++x) {
      const ptrdiff_t i = y * s + x;
      ptrdiff_t a = 0, b = 0;  // the two neighbours, as offsets
      switch (directions[i]) {
        case k45Up:
          a = s - 1, b = -s + 1;
          break;
        case k45Down:
          a = -s - 1, b = s + 1;
          break;
        case kHorizontal:
          a = -1, b = 1;
          break;
        default:
          a = -s, b = s;
          break;
      }
      if (gradients[i] > gradients[i + a] && gradients[i] > gradients[i + b])
        dst[i] = uint8_t(std::min<int>(gradients[i], 255));
    }
  }
}

// Keeps values above high, and values above low with a neighbour above high (in place: a value
// it zeroes was at most high, so it changes no later test).
void doubleThreshold(int low, int high, int w, int h, uint8_t* edges) {
  const ptrdiff_t s = w;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      uint8_t* p = edges + y * s + x;
      if (*p > high) continue;
      const bool inner = x && x != w - 1 && y && y != h - 1;
      if (!(inner && *p > low &&
            (p[-s - 1] > high || p[-s] > high || p[-s + 1] > high || p[-1] > high || p[1] > high ||
             p[s - 1] > high || p[s] > high || p[s + 1] > high)))
        *p = 0;
    }
  }
}

}  // namespace

uint8_t blurThreshold(float fraction) {
  return uint8_t(double(fraction) * 255. + .5);
}

BlurBlocks blurBlocksOf(const BlurDetectConfig& config, int plane0_width, int plane0_height,
                        int plane_width, int plane_height, int shift_x, int shift_y) {
  const bool whole = config.block_width < 1 || config.block_height < 1;
  const int width0 = whole ? plane0_width : config.block_width;
  const int height0 = whole ? plane0_height : config.block_height;
  BlurBlocks b;
  // In 64 bits: a block size near INT_MAX plus the shift's rounding.
  b.width = int((int64_t(width0) + (int64_t(1) << shift_x) - 1) >> shift_x);
  b.height = int((int64_t(height0) + (int64_t(1) << shift_y) - 1) >> shift_y);
  b.rows = plane_height / b.height;
  b.columns = plane_width / b.width;
  return b;
}

void SharpestBlocks::begin(size_t blocks) {
  if (widths_.size() < blocks) widths_.resize(blocks);
  count_ = 0;
}

void SharpestBlocks::add(double total, int edge_pixels) {
  // A block with too few edge pixels is smooth.
  if (total >= 2 && edge_pixels) widths_[count_++] = float(total / edge_pixels);
}

float SharpestBlocks::mean(int block_pct) {
  // The block_pct percent sharpest (narrowest) blocks, counted in float as ffmpeg does.
  std::sort(widths_.begin(), widths_.begin() + ptrdiff_t(count_));
  const float pool = float(block_pct / 100.0);
  const int kept = int(std::ceil(float(int(count_)) * pool));
  float total_width = 0.0f;
  for (int i = 0; i < kept; ++i) total_width += widths_[size_t(i)];
  return total_width / float(kept);  // 0 / 0 (NaN) without a block, as ffmpeg's
}

BlurDetector::BlurDetector(const BlurDetectConfig& config)
    : config_(config), low_(blurThreshold(config.low)), high_(blurThreshold(config.high)) {}

float BlurDetector::edgeWidth(int i, int j, int direction, int w, int h) const {
  const uint8_t* src = smoothed_.data();
  const ptrdiff_t s = w;
  int dx = 1, dy = 1;
  if (direction == kHorizontal) dx = 1, dy = 0;
  if (direction == kVertical) dx = 0, dy = 1;
  if (direction == k45Up) dx = 1, dy = -1;
  // Looking for a maximum or a minimum: the pixel against the one before it.
  const int sign = src[j * s + i] > src[(j - dy) * s + i - dx] ? 1 : -1;
  float width = 0;
  int k = 0;
  for (k = 0; k < config_.radius; ++k) {
    const int x = i - k * dx, y = j - k * dy;
    const int x2 = x - dx, y2 = y - dy;
    if (x2 < 0 || x2 >= w || y2 < 0 || y2 >= h) return 0;
    if ((src[y * s + x] - src[y2 * s + x2]) * sign <= 0) break;
  }
  width += float(k);
  for (k = 0; k < config_.radius; ++k) {
    const int x = i + k * dx, y = j + k * dy;
    const int x2 = x + dx, y2 = y + dy;
    if (x2 < 0 || x2 >= w || y2 < 0 || y2 >= h) return 0;
    if ((src[y * s + x] - src[y2 * s + x2]) * sign >= 0) break;
  }
  width += float(k);
  if (direction == k45Up || direction == k45Down) return diagonalWidth(int(width));
  return width;
}

float BlurDetector::planeBlur(const FfmpegPlane& plane, int shift_x, int shift_y) {
  const int w = plane.width, h = plane.height;
  if (w < 5 || h < 5) return 0;  // no interior for the 5x5 Gaussian
  gaussian(w, h, smoothed_.data(), plane.samples.data());
  sobel(w, h, gradients_.data(), directions_.data(), smoothed_.data());
  std::fill(edges_.begin(), edges_.end(), uint8_t(0));
  nonMaximumSuppression(w, h, edges_.data(), directions_.data(), gradients_.data());
  doubleThreshold(low_, high_, w, h, edges_.data());

  const BlurBlocks b = blurBlocksOf(config_, width_, height_, w, h, shift_x, shift_y);
  blocks_.begin(size_t(b.rows) * size_t(b.columns));
  for (int by = 0; by < b.rows; ++by) {
    for (int bx = 0; bx < b.columns; ++bx) {
      double total = 0.0;
      int edge_pixels = 0;
      for (int y = by * b.height; y < (by + 1) * b.height; ++y) {
        for (int x = bx * b.width; x < (bx + 1) * b.width; ++x) {
          const size_t i = size_t(y) * size_t(w) + size_t(x);
          if (edges_[i] == 0) continue;
          const float width = edgeWidth(x, y, directions_[i], w, h);
          if (width > 0.001) {  // ffmpeg drops the zeros
            ++edge_pixels;
            total += width;
          }
        }
      }
      blocks_.add(total, edge_pixels);
    }
  }
  return blocks_.mean(config_.block_pct);
}

float BlurDetector::detect(const FfmpegPlanes& frame) {
  const FfmpegPlane& first = frame.planes[0];
  if (first.width != width_ || first.height != height_) {
    width_ = first.width;
    height_ = first.height;
    const size_t pixels = saturatingSize(width_, height_);  // within the frame's own size
    smoothed_.assign(pixels, 0);
    edges_.assign(pixels, 0);
    gradients_.assign(pixels, 0);
    directions_.assign(pixels, 0);
  }
  float blur = 0.0f;
  int planes = 0;
  for (size_t p = 0; p < frame.planes.size(); ++p) {
    if (!((1 << p) & config_.planes)) continue;
    ++planes;
    const bool chroma = !frame.rgb && (p == 1 || p == 2);
    blur += planeBlur(frame.planes[p], chroma ? frame.chroma_shift_x : 0,
                      chroma ? frame.chroma_shift_y : 0);
  }
  if (planes) blur /= float(planes);
  return blur;
}

}  // namespace esf
