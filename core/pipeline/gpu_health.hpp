#pragma once
// The GPU backend's health figures (PipelineConfig::health): the frame difference and the Sobel
// pass of the plan's health pass, on the import's luma (or its RGB), image or packed; their sums
// come back in the frame's one read-back, and collect() turns them into the figures and events
// (HealthMonitor, the same as the CPU backends').
#include <optional>
#include <vector>

#include "core/image/gpu_image.hpp"
#include "core/pipeline/frame_readback.hpp"
#include "core/stages/frame_difference.hpp"
#include "core/stages/sobel.hpp"
#include "core/stats/health_figures.hpp"
#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

class GpuHealth {
 public:
  explicit GpuHealth(const HealthConfig& config) : config_(config), monitor_(config) {}
  // The two stages, made once, before any frame's time is taken.
  Status configure(GlContext& gl);
  // Whether the stages read a packed frame (PlanData::kPacked).
  bool acceptsPacked() const { return difference_ && difference_->acceptsPacked(); }
  // The health pass on an image: the Sobel pass reads the luma the difference wrote.
  Status run(const GpuImage& image, bool from_rgb, bool full_range);
  // The same on a packed frame: both passes read it, queued together with one barrier after
  // both, so the GPU overlaps them.
  Status run(const PackedRgbaBuffer& packed, bool from_rgb, bool full_range);
  // After the frame's GPU work: lists the sums in its read-back.
  void addReadback(FrameReadback& readback);
  // After the read-back: `frame`'s figures and events into `r`, and the time they took.
  Status collect(const Frame& frame, FrameResult& r, const FrameReadback& readback);
  double readMs() const { return read_ms_; }
  // The end of the stream: the events still running.
  void finish(std::vector<HealthEvent>& events) { monitor_.finish(events); }

 private:
  HealthConfig config_;
  HealthMonitor monitor_;
  std::optional<FrameDifference> difference_;
  std::optional<Sobel> sobel_;
  bool full_range_ = true;  // the range the frame's passes ran with
  size_t difference_at_ = 0, sobel_at_ = 0;
  double read_ms_ = 0;
};

}  // namespace esf
