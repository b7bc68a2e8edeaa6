#include "core/pipeline/host_health.hpp"

#include <algorithm>

#include "capture/pixel_format.hpp"
#include "core/cpu/cpu_health.hpp"
#include "core/cpu/simd_kernels.hpp"
#include "core/import/import_reference.hpp"
#include "core/pipeline/backend_common.hpp"
#include "core/stages/frame_difference_reference.hpp"
#include "core/stages/sobel_reference.hpp"

namespace esf {
namespace {

// healthLumaPlane into `out`, reusing its memory where the luma is computed.
void fillHealthLuma(const Frame& frame, const RgbaImage* imported, RowPool* pool,
                    std::vector<uint8_t>& out) {
  if (Result<std::vector<uint8_t>> y = extractLumaPlane(frame); y) {
    out = std::move(y.value());
    return;
  }
  if (!imported) {
    out.clear();
    return;
  }
  out.resize(size_t(imported->width) * size_t(imported->height));
  if (pool) {
    const int w = imported->width;
    pool->forEachBand(imported->height, [&](int begin, int end, int) {
      for (int y = begin; y < end; ++y)
        simd::lumaOfRgba(imported->at(0, y), w, {13933, 46871, 4732, 32768, 16},
                         &out[size_t(y) * size_t(w)]);
    });
    return;
  }
  const uint8_t* p = imported->pixels.data();
  for (size_t i = 0; i < out.size(); ++i, p += 4) out[i] = uint8_t(lumaBt709(p[0], p[1], p[2]));
}

}  // namespace

std::vector<uint8_t> healthLumaPlane(const Frame& frame, const RgbaImage* imported, RowPool* pool) {
  std::vector<uint8_t> luma;
  fillHealthLuma(frame, imported, pool, luma);
  return luma;
}

uint8_t* HostHealth::lumaPlane(const Frame& frame) {
  std::vector<uint8_t>& plane = planes_[current_];
  plane.resize(size_t(frame.width) * size_t(frame.height));  // no reallocation at the same size
  return plane.data();
}

void HostHealth::process(const Frame& frame, const RgbaImage* imported, FrameResult& r,
                         bool luma_filled, const std::array<uint64_t, 256>* histogram) {
  WallTimer timer;
  if (!luma_filled) fillHealthLuma(frame, imported, pool_, planes_[current_]);
  const uint8_t* luma = planes_[current_].data();
  const int w = frame.width, h = frame.height;
  HealthSums sums;
  sums.pixels = uint64_t(w) * uint64_t(h);
  sums.width = w;
  sums.height = h;
  sums.full_range = healthLumaIsFullRange(frame);
  sums.first = !has_previous_ || w != width_ || h != height_;
  const uint8_t* previous = sums.first ? nullptr : planes_[previous_].data();
  const uint8_t* reference = sums.first ? nullptr : planes_[reference_].data();
  if (pool_) {
    DifferencePlanes planes{luma, previous ? previous : luma, reference ? reference : luma, luma,
                            previous ? previous : luma};
    if (!sums.full_range) {
      std::vector<uint8_t>& stretched = stretched_[stretched_current_];
      std::vector<uint8_t>& stretched_previous = stretched_[1 - stretched_current_];
      stretched.resize(size_t(w) * size_t(h));
      stretchLimitedLumaCpu(luma, w, h, stretched.data(), *pool_);
      planes.stretched = stretched.data();
      planes.stretched_previous = planes.stretched;
      if (previous) {
        // The previous frame's F is kept when it was limited range too, else made now.
        if (!previous_stretched_) {
          stretched_previous.resize(stretched.size());
          stretchLimitedLumaCpu(previous, w, h, stretched_previous.data(), *pool_);
        }
        planes.stretched_previous = stretched_previous.data();
      }
    }
    healthSumsCpu(planes, w, h, regions_, !histogram, *pool_, sums.difference, sums.sobel);
    if (histogram)
      for (size_t v = 0; v < 256; ++v) sums.difference.histogram[v] = uint32_t((*histogram)[v]);
    if (!sums.full_range) stretched_current_ = 1 - stretched_current_;
    previous_stretched_ = !sums.full_range;
  } else {
    sums.difference =
        frameDifferenceReference(luma, previous, reference, w, h, sums.full_range, regions_);
    sums.sobel = sobelReference(luma, w, h, sums.full_range, regions_);
  }
  // The frame becomes the previous one, and the reference too unless it was frozen (the
  // reference keeps its plane while frozen frames pass); the next frame takes a plane that is
  // neither.
  if (sums.first || !healthFrozen(sums, config_)) reference_ = current_;
  previous_ = current_;
  for (size_t i = 0; i < planes_.size(); ++i)
    if (i != previous_ && i != reference_) current_ = i;
  has_previous_ = true;
  width_ = w;
  height_ = h;
  r.health = monitor_.update(sums, frame.sequence, frame.timestamp_ns, r.events);
  r.timings.push_back({"health", timer.ms(), false});
}

}  // namespace esf
