#pragma once
// --output csv[:bins]: a header line, then one row per frame (docs/output-formats.md).
// The columns are fixed by the first frame (channels, stages, figures) and by what the run asks
// for (CsvColumns); rows are written whole.
#include <string>

#include "esframe/sink.hpp"

namespace esf {

// The columns beyond those the first frame's figures give: cropdetect's, which the frames it
// skips lack (their fields are then empty).
struct CsvColumns {
  bool with_bins = false;
  bool cropdetect = false;
};
// The columns of a run whose first frame is `first`, asked for `asked`.
CsvColumns csvColumnsOf(const FrameResult& first, const CsvColumns& asked);
std::string csvHeader(const FrameResult& first, const CsvColumns& columns);
std::string csvRow(const FrameResult& frame, const CsvColumns& columns);
inline std::string csvHeader(const FrameResult& first, bool with_bins) {
  return csvHeader(first, csvColumnsOf(first, {with_bins, false}));
}
inline std::string csvRow(const FrameResult& frame, bool with_bins) {
  return csvRow(frame, csvColumnsOf(frame, {with_bins, false}));
}

class CsvOutput : public FrameSink {
 public:
  CsvOutput(int fd, CsvColumns asked) : fd_(fd), columns_(asked) {}
  Status write(const FrameResult& frame) override;

 private:
  int fd_;
  CsvColumns columns_;  // as asked, then as the header has them
  bool header_written_ = false;
};

}  // namespace esf
