#pragma once
// --output jsonl: one JSON object per frame and line (docs/output-formats.md).
#include <string>

#include "esframe/sink.hpp"

namespace esf {

// The line for one frame, with its trailing '\n'.
std::string jsonlLine(const FrameResult& frame);
// The line of one health event (docs/output-formats.md, "Camera health"), with its '\n'.
std::string jsonlEventLine(const HealthEvent& event);

class JsonlOutput : public FrameSink {
 public:
  explicit JsonlOutput(int fd) : fd_(fd) {}
  // The frame's line, then a line per health event it reports.
  Status write(const FrameResult& frame) override;
  Status writeEvents(const std::vector<HealthEvent>& events) override;

 private:
  int fd_;
};

}  // namespace esf
