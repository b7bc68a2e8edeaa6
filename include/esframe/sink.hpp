#pragma once
// A sink takes each processed frame: the built-in ones (esframe/sinks.hpp) write JSONL, CSV,
// binary records, PNG files or a DRM/KMS plane; an application can add its own.
#include <vector>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame_result.hpp"

namespace esf {

class ESF_API FrameSink {
 public:
  virtual ~FrameSink() = default;
  // Delivers one frame. An error stops the run; ErrorCode::kOutputClosed means the reader went
  // away (a closed stdout), which ends the run without being a failure.
  virtual Status write(const FrameResult& frame) = 0;
  // Before any sink's write() of a frame, every sink may add to it (the auto-exposure loop
  // reports its controls there, for the record sinks to print).
  virtual Status annotate(FrameResult& /*frame*/) { return Status::success(); }
  // Health events that belong to no frame, after the last one: those the end of the stream
  // gives (Pipeline::endStream).
  virtual Status writeEvents(const std::vector<HealthEvent>& /*events*/) {
    return Status::success();
  }
  // After the last frame, also when the run was stopped: flush, restore, release.
  virtual Status finish() { return Status::success(); }
};

}  // namespace esf
