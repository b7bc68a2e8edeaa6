#include "core/pipeline/host_health.hpp"

#include <algorithm>

#include "base/pixel_format.hpp"
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

void HostHealth::prepare(const Frame& frame, bool count_histogram) {
  const uint8_t* luma = planes_[current_].data();
  const int w = frame.width, h = frame.height;
  sums_ = HealthSums{};
  sums_.pixels = uint64_t(w) * uint64_t(h);
  sums_.width = w;
  sums_.height = h;
  sums_.full_range = healthLumaIsFullRange(frame);
  sums_.first = !has_previous_ || w != width_ || h != height_;
  previous_plane_ = sums_.first ? nullptr : planes_[previous_].data();
  reference_plane_ = sums_.first ? nullptr : planes_[reference_].data();
  if (!pool_) return;
  const DifferencePlanes planes{luma, previous_plane_ ? previous_plane_ : luma,
                                reference_plane_ ? reference_plane_ : luma};
  uint8_t* stretch_into = nullptr;
  if (!sums_.full_range) {
    stretched_.resize(size_t(w) * size_t(h));  // no reallocation at the same size
    stretch_into = stretched_.data();
  }
  rows_.start(planes, stretch_into, w, h, regions_, count_histogram, pool_->threads(),
              RowPool::kStripeRows);
}

void HostHealth::startRows(const Frame& frame, bool count_histogram) {
  prepare(frame, count_histogram);
  rows_started_ = pool_ != nullptr;
}

void HostHealth::process(const Frame& frame, const RgbaImage* imported, FrameResult& r,
                         bool luma_filled, const std::array<uint64_t, 256>* histogram) {
  WallTimer timer;
  if (!rows_started_) {
    if (!luma_filled) fillHealthLuma(frame, imported, pool_, planes_[current_]);
    prepare(frame, !histogram);
    if (pool_) rows_.addRows(*pool_);
  }
  HealthSums& sums = sums_;
  const int w = frame.width, h = frame.height;
  if (pool_) {
    rows_.finish(sums.difference, sums.sobel);
    if (histogram)
      for (size_t v = 0; v < 256; ++v) sums.difference.histogram[v] = uint32_t((*histogram)[v]);
  } else {
    const uint8_t* luma = planes_[current_].data();
    sums.difference = frameDifferenceReference(luma, previous_plane_, reference_plane_, w, h,
                                               sums.full_range, regions_);
    sums.sobel = sobelReference(luma, w, h, sums.full_range, regions_);
  }
  rows_started_ = false;
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
