#pragma once
// The CPU backends' health stages (PipelineConfig::health): the frame's luma plane, the frame
// difference against the kept previous and reference planes, the Sobel sums, and the figures
// and events from them. The references run the plain loops, the executor its kernels
// (core/cpu/cpu_health.hpp); the same sums either way.
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/cpu/cpu_health.hpp"
#include "core/cpu/row_pool.hpp"
#include "core/stats/health_figures.hpp"
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
  // The plane (width x height bytes) the next process call takes as the frame's health luma
  // when told it is filled: for a caller that writes each row while it has it in cache.
  uint8_t* lumaPlane(const Frame& frame);
  // The executor's fused form: startRows before lumaPlane's rows are written, addRow(y, band)
  // once row y is (from the rows' own threads, in stripes of RowPool::kStripeRows as
  // RowPool::forEachStripe gives them), then process with luma_filled. count_histogram false:
  // process is given the luma's counts.
  void startRows(const Frame& frame, bool count_histogram);
  void addRow(int y, int band) { rows_.addRow(y, band); }
  // Sets r.health and appends r.events; times itself as stage "health" (after startRows, only
  // what is left once the rows are in). luma_filled: lumaPlane holds the frame's health luma
  // (else it is taken from the frame or `imported`). histogram: the counts of that luma's
  // values, when the caller has them.
  void process(const Frame& frame, const RgbaImage* imported, FrameResult& r,
               bool luma_filled = false, const std::array<uint64_t, 256>* histogram = nullptr);
  void finish(std::vector<HealthEvent>& events) { monitor_.finish(events); }

 private:
  // The frame's sums header, its previous and reference planes and, with a pool, rows_ started.
  void prepare(const Frame& frame, bool count_histogram);

  HealthMonitor monitor_;
  HealthConfig config_;
  HealthRegionSpec regions_;
  RowPool* pool_;
  // Three planes in turn, none copied: the current frame's, the previous one's and the freeze
  // reference's (previous and reference the same plane unless frames were frozen).
  std::array<std::vector<uint8_t>, 3> planes_;
  size_t current_ = 0, previous_ = 1, reference_ = 1;
  std::vector<uint8_t> stretched_;  // for limited range, F of the current plane
  bool has_previous_ = false;
  HealthRowSums rows_;
  HealthSums sums_;
  const uint8_t* previous_plane_ = nullptr;  // of the frame being processed; null on a first
  const uint8_t* reference_plane_ = nullptr;
  bool rows_started_ = false;
  int width_ = 0, height_ = 0;
};

}  // namespace esf
