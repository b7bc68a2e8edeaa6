#include "core/pipeline/host_health.hpp"

#include "capture/pixel_format.hpp"
#include "core/cpu/cpu_health.hpp"
#include "core/import/import_reference.hpp"
#include "core/pipeline/backend_common.hpp"
#include "core/stages/frame_difference_reference.hpp"
#include "core/stages/sobel_reference.hpp"

namespace esf {

std::vector<uint8_t> healthLumaPlane(const Frame& frame, const RgbaImage* imported) {
  if (Result<std::vector<uint8_t>> y = extractLumaPlane(frame); y) return std::move(y.value());
  std::vector<uint8_t> luma;
  if (!imported) return luma;
  luma.resize(size_t(imported->width) * size_t(imported->height));
  const uint8_t* p = imported->pixels.data();
  for (size_t i = 0; i < luma.size(); ++i, p += 4) luma[i] = uint8_t(lumaBt709(p[0], p[1], p[2]));
  return luma;
}

void HostHealth::process(const Frame& frame, const RgbaImage* imported, FrameResult& r) {
  WallTimer timer;
  const std::vector<uint8_t> luma = healthLumaPlane(frame, imported);
  const int w = frame.width, h = frame.height;
  HealthSums sums;
  sums.pixels = uint64_t(w) * uint64_t(h);
  sums.full_range = healthLumaIsFullRange(frame);
  sums.first = previous_.empty() || w != width_ || h != height_;
  const uint8_t* previous = sums.first ? nullptr : previous_.data();
  const uint8_t* reference = sums.first ? nullptr : reference_.data();
  if (pool_) {
    sums.difference =
        frameDifferenceCpu(luma.data(), previous, reference, w, h, sums.full_range, *pool_);
    sums.sobel = sobelCpu(luma.data(), w, h, sums.full_range, *pool_);
  } else {
    sums.difference =
        frameDifferenceReference(luma.data(), previous, reference, w, h, sums.full_range);
    sums.sobel = sobelReference(luma.data(), w, h, sums.full_range);
  }
  if (sums.first || !healthFrozen(sums, config_)) reference_ = luma;
  previous_ = luma;
  width_ = w;
  height_ = h;
  r.health = monitor_.update(sums, frame.sequence, frame.timestamp_ns, r.events);
  r.timings.push_back({"health", timer.ms(), false});
}

}  // namespace esf
