#include "core/pipeline/host_health.hpp"

#include "capture/pixel_format.hpp"
#include "core/cpu/cpu_health.hpp"
#include "core/cpu/simd_kernels.hpp"
#include "core/import/import_reference.hpp"
#include "core/pipeline/backend_common.hpp"
#include "core/stages/frame_difference_reference.hpp"
#include "core/stages/sobel_reference.hpp"

namespace esf {

std::vector<uint8_t> healthLumaPlane(const Frame& frame, const RgbaImage* imported, RowPool* pool) {
  if (Result<std::vector<uint8_t>> y = extractLumaPlane(frame); y) return std::move(y.value());
  std::vector<uint8_t> luma;
  if (!imported) return luma;
  luma.resize(size_t(imported->width) * size_t(imported->height));
  if (pool) {
    const int w = imported->width;
    pool->forEachBand(imported->height, [&](int begin, int end, int) {
      for (int y = begin; y < end; ++y)
        simd::lumaOfRgba(imported->at(0, y), w, {13933, 46871, 4732, 32768, 16},
                         &luma[size_t(y) * size_t(w)]);
    });
    return luma;
  }
  const uint8_t* p = imported->pixels.data();
  for (size_t i = 0; i < luma.size(); ++i, p += 4) luma[i] = uint8_t(lumaBt709(p[0], p[1], p[2]));
  return luma;
}

void HostHealth::process(const Frame& frame, const RgbaImage* imported, FrameResult& r) {
  WallTimer timer;
  std::vector<uint8_t> luma = healthLumaPlane(frame, imported, pool_);
  const int w = frame.width, h = frame.height;
  HealthSums sums;
  sums.pixels = uint64_t(w) * uint64_t(h);
  sums.width = w;
  sums.height = h;
  sums.full_range = healthLumaIsFullRange(frame);
  sums.first = previous_.empty() || w != width_ || h != height_;
  const uint8_t* previous = sums.first ? nullptr : previous_.data();
  const uint8_t* reference = sums.first ? nullptr : reference_.data();
  if (pool_) {
    sums.difference = frameDifferenceCpu(luma.data(), previous, reference, w, h, sums.full_range,
                                         regions_, *pool_);
    sums.sobel = sobelCpu(luma.data(), w, h, sums.full_range, regions_, *pool_);
  } else {
    sums.difference =
        frameDifferenceReference(luma.data(), previous, reference, w, h, sums.full_range, regions_);
    sums.sobel = sobelReference(luma.data(), w, h, sums.full_range, regions_);
  }
  // The frame becomes the previous one, and the reference too unless it was frozen: moved, not
  // copied (the reference keeps its plane while frozen frames pass).
  if (sums.first || !healthFrozen(sums, config_)) {
    reference_ = luma;
    previous_ = std::move(luma);
  } else {
    previous_ = std::move(luma);
  }
  width_ = w;
  height_ = h;
  r.health = monitor_.update(sums, frame.sequence, frame.timestamp_ns, r.events);
  r.timings.push_back({"health", timer.ms(), false});
}

}  // namespace esf
