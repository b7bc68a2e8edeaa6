#pragma once
// The GPU backend's TOUT and VREP (PipelineConfig::signalstats_tout, ::signalstats_vrep) of YUV
// frames: counted at the import from the Y plane texture it read (zero-copy frames too), beside
// GpuScopes' chroma counts; the two words come back in the frame's one read-back, and collect()
// puts the figures into r.signalstats, which GpuScopes made from the chroma counts. The host then
// counts neither (PipelineBackend::countsLumaSignalstats).
#include <optional>

#include "base/pixel_format.hpp"
#include "core/pipeline/gpu_frame_extra.hpp"
#include "core/stages/luma_signalstats.hpp"
#include "esframe/pipeline_config.hpp"
#include "platform/gl_context.hpp"

namespace esf {

class GpuLumaSignalstats : public GpuFrameExtra {
 public:
  GpuLumaSignalstats(GlContext& gl, const PipelineConfig& config)
      : gl_(gl), tout_(config.signalstats_tout), vrep_(config.signalstats_vrep) {}
  // Whether `config` asks for them: a GPU backend makes one only then.
  static bool asked(const PipelineConfig& config) {
    return config.signalstats && (config.signalstats_tout || config.signalstats_vrep);
  }
  // The stage, made before any frame's time is taken, and how `format`'s frames keep their Y.
  Status configureFor(const Frame& frame, const FramePlan& plan) override;
  // At the import: a YUV frame's counts, from the Y plane the import read.
  Status count(const ImportedFrame& imported) override;
  // After the frame's GPU work: lists the counts the frame made in its read-back.
  void addReadback(FrameReadback& readback) override;
  // After the read-back: TOUT and VREP into r.signalstats (where the chroma figures are).
  Status collect(const Frame& frame, FrameResult& r, const FrameReadback& readback) override;

 private:
  GlContext& gl_;
  bool tout_ = false, vrep_ = false;
  std::optional<LumaSignalstats> stage_;
  bool yuv_ = false, y_in_green_ = false;  // of the configured format
  FrameResultSlot slot_;
};

}  // namespace esf
