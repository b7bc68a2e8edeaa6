#pragma once
// The CPU backends' health stages (PipelineConfig::health): the frame's luma plane, the frame
// difference against the kept previous and reference planes, the Sobel sums, and the figures
// and events from them. The references run the plain loops, the executor its kernels
// (core/cpu/cpu_health.hpp); the same sums either way.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/cpu/row_pool.hpp"
#include "core/stats/health.hpp"
#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

// The health luma of a frame: its Y plane (YUV and GREY), else the BT.709 integer luma of
// `imported` (the frame converted to RGBA, before any blur or resize): with a pool, through the
// executor's vector kernel, else the plain loop.
std::vector<uint8_t> healthLumaPlane(const Frame& frame, const RgbaImage* imported,
                                     RowPool* pool = nullptr);

class HostHealth {
 public:
  // pool null: the plain references.
  HostHealth(const HealthConfig& config, RowPool* pool)
      : monitor_(config), config_(config), regions_(HealthRegionSpec::of(config)), pool_(pool) {}
  // Sets r.health and appends r.events; times itself as stage "health".
  void process(const Frame& frame, const RgbaImage* imported, FrameResult& r);
  void finish(std::vector<HealthEvent>& events) { monitor_.finish(events); }

 private:
  HealthMonitor monitor_;
  HealthConfig config_;
  HealthRegionSpec regions_;
  RowPool* pool_;
  std::vector<uint8_t> previous_, reference_;
  int width_ = 0, height_ = 0;
};

}  // namespace esf
