#pragma once
// --output jsonl: one JSON object per frame and line (docs/output-formats.md).
#include <string>

#include "esframe/sink.hpp"

namespace esf {

// The line for one frame, with its trailing '\n'.
std::string jsonlLine(const FrameResult& frame);

class JsonlOutput : public FrameSink {
 public:
  explicit JsonlOutput(int fd) : fd_(fd) {}
  Status write(const FrameResult& frame) override;

 private:
  int fd_;
};

}  // namespace esf
