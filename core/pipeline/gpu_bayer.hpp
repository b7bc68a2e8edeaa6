#pragma once
// The GPU backend's Bayer frames: their setup at configure time (configureBayer: the format's CFA
// order, depth and row layout with the run's --raw levels, checked once), then per frame the
// values unpacked on the host (the one CPU share), uploaded once, the raw statistics counted from
// that upload and the demosaic into the stage image. The statistics come back in the frame's one
// read-back; collect() puts them into r.raw.
#include <optional>

#include "core/cpu/row_pool.hpp"
#include "core/image/gpu_image.hpp"
#include "core/pipeline/bayer_frame.hpp"
#include "core/pipeline/gpu_frame_extra.hpp"
#include "core/stages/demosaic.hpp"
#include "core/stages/raw_histograms.hpp"
#include "esframe/pipeline_config.hpp"
#include "platform/gl_context.hpp"

namespace esf {

class GpuBayer : public GpuFrameExtra {
 public:
  GpuBayer(GlContext& gl, const PipelineConfig& config) : gl_(gl), config_(config) {}
  // Where the plan begins with the demosaic: the setup for `frame`'s format and size with the
  // configuration's levels, and the stages, made before any frame's time is taken. Fails with
  // one line naming the level or size such frames cannot take.
  Status configureFor(const Frame& frame, const FramePlan& plan) override;
  // Unpacks, uploads and counts `frame` (of the configured format and size), and demosaics it
  // into `target` (sized for it).
  Result<ImportedFrame> import(const Frame& frame, GpuImage& target);
  // The import counts the raw statistics: nothing to count after it.
  Status count(const ImportedFrame&) override { return Status::success(); }
  // After the frame's GPU work: lists the raw statistics in its read-back.
  void addReadback(FrameReadback& readback) override;
  // After the read-back: the raw statistics into r.raw.
  Status collect(const Frame& frame, FrameResult& r, const FrameReadback& readback) override;

 private:
  GlContext& gl_;
  PipelineConfig config_;  // the levels and the host threads
  std::optional<BayerSetup> setup_;
  std::optional<RawHistogramsSetup> raw_setup_;  // the statistics' view of setup_
  std::optional<Demosaic> demosaic_;
  std::optional<RawHistograms> raw_histograms_;  // counted from the values the demosaic uploaded
  // The host's unpack runs on these threads (a quarter less upload time on two cores than on
  // one beside llvmpipe: bench/RESULTS.md).
  std::optional<RowPool> host_pool_;
  FrameResultSlot slot_;
};

}  // namespace esf
