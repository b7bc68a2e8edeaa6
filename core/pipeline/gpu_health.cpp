#include "core/pipeline/gpu_health.hpp"

#include <utility>

#include "core/pipeline/backend_common.hpp"
#include "core/stages/stage_gl.hpp"

namespace esf {

Status GpuHealth::configure(GlContext& gl) {
  if (difference_) return Status::success();
  const HealthRegionSpec regions = HealthRegionSpec::of(config_);
  const bool has_regions = regions.count() > 0;
  Result<FrameDifference> d =
      FrameDifference::create(gl, FrameDifferenceParams::defaultsFor(gl, has_regions), regions);
  if (!d) return d.error();
  Result<Sobel> s = Sobel::create(gl, SobelParams::defaultsFor(gl, has_regions), regions);
  if (!s) return s.error();
  // Both or neither: a later frame must not find the difference without its Sobel pass.
  difference_.emplace(std::move(d.value()));
  sobel_.emplace(std::move(s.value()));
  return Status::success();
}

Status GpuHealth::run(const GpuImage& image, bool from_rgb, bool full_range) {
  full_range_ = full_range;
  if (Status s = difference_->run(image, from_rgb, full_range); !s) return s;
  return sobel_->run(difference_->currentLuma(), image.width(), image.height(), full_range);
}

Status GpuHealth::run(const PackedRgbaBuffer& packed, bool from_rgb, bool full_range) {
  full_range_ = full_range;
  if (Status s = difference_->queue(packed, from_rgb, full_range); !s) return s;
  if (Status s = sobel_->queue(packed, from_rgb, full_range); !s) return s;
  glMemoryBarrier(kStorageWrittenBarrier);
  if (Status s = difference_->complete(); !s) return s;
  return sobel_->complete();
}

void GpuHealth::addReadback(FrameReadback& readback) {
  difference_at_ = readback.add(difference_->resultWords());
  sobel_at_ = readback.add(sobel_->resultWords());
}

Status GpuHealth::collect(const Frame& frame, FrameResult& r, const FrameReadback& readback) {
  WallTimer read;
  HealthSums sums;
  Result<FrameDifferenceSums> d = difference_->sumsOf(readback.words(difference_at_));
  if (!d) return d.error();
  Result<SobelSums> so = sobel_->sumsOf(readback.words(sobel_at_));
  if (!so) return so.error();
  sums.difference = d.value();
  sums.sobel = so.value();
  sums.pixels = uint64_t(frame.width) * uint64_t(frame.height);
  sums.width = frame.width;
  sums.height = frame.height;
  sums.full_range = full_range_;
  sums.first = difference_->first();
  difference_->advance(healthFrozen(sums, config_));
  r.health = monitor_.update(sums, frame.sequence, frame.timestamp_ns, r.events);
  read_ms_ = read.ms();
  return Status::success();
}

}  // namespace esf
