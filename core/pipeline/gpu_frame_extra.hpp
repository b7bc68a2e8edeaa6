#pragma once
// What the GPU backend counts beside a frame's passes where the configuration or the format asks
// for it (the scopes and signalstats' chroma, TOUT and VREP, blurdetect, blockdetect, a Bayer
// frame's raw statistics). Each is set up with the frame plan, counts at the import from what
// the import made (zero-copy frames too, before the import's fence), lists its results in the
// frame's one read-back, and puts its figures into the frame's result after the read. The
// backend keeps them in one list and calls them in its order.
#include "core/import/frame_import.hpp"
#include "core/pipeline/frame_plan.hpp"
#include "core/pipeline/frame_readback.hpp"
#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"

namespace esf {

class GpuFrameExtra {
 public:
  virtual ~GpuFrameExtra() = default;
  // The stages `frame`'s format needs under `plan`, made before any frame's time is taken.
  virtual Status configureFor(const Frame& frame, const FramePlan& plan) = 0;
  // At the import of a frame of the configured format, from what the import made.
  virtual Status count(const ImportedFrame& imported) = 0;
  // After the frame's GPU work: lists what the frame counted in its read-back.
  virtual void addReadback(FrameReadback& readback) = 0;
  // After the read-back: the figures into `r`, the result of `frame`.
  virtual Status collect(const Frame& frame, FrameResult& r, const FrameReadback& readback) = 0;
};

}  // namespace esf
