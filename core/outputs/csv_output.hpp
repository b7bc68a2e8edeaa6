#pragma once
// --output csv[:bins]: a header line, then one row per frame (docs/output-formats.md).
// The columns are fixed by the first frame (channels, stages); rows are written whole.
#include <string>

#include "esframe/sink.hpp"

namespace esf {

std::string csvHeader(const FrameResult& first, bool with_bins);
std::string csvRow(const FrameResult& frame, bool with_bins);

class CsvOutput : public FrameSink {
 public:
  CsvOutput(int fd, bool with_bins) : fd_(fd), with_bins_(with_bins) {}
  Status write(const FrameResult& frame) override;

 private:
  int fd_;
  bool with_bins_;
  bool header_written_ = false;
};

}  // namespace esf
