#pragma once
// --output prom:PATH: the node_exporter textfile-collector format (Prometheus text exposition
// 0.0.4), rewritten whole (temporary file, then rename) at most every `every_s` seconds and once
// more at the end of the run.
#include <array>
#include <chrono>
#include <string>

#include "esframe/sink.hpp"
#include "esframe/sink_options.hpp"

namespace esf {

// Health events seen so far, by HealthEventType.
using HealthEventCounts = std::array<uint64_t, size_t(HealthEventType::kCameraOnline) + 1>;
// The metrics text for the run so far: `frames` processed, `source_dropped` frames the source
// lost, the health `events` counted, and the figures of `last`, the latest frame.
std::string promText(const FrameResult& last, uint64_t frames, uint64_t source_dropped,
                     const HealthEventCounts& events = {});

class PromOutput : public FrameSink {
 public:
  explicit PromOutput(PromSinkOptions options) : options_(std::move(options)) {}
  Status write(const FrameResult& frame) override;
  Status writeEvents(const std::vector<HealthEvent>& events) override;
  Status finish() override;

 private:
  Status flush();

  PromSinkOptions options_;
  uint64_t frames_ = 0;
  uint64_t source_dropped_ = 0;
  HealthEventCounts events_{};
  FrameResult last_;
  bool have_last_ = false;
  bool written_since_last_ = false;
  std::chrono::steady_clock::time_point next_write_{};
};

}  // namespace esf
