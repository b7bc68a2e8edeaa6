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

// What the run has counted so far, for the metrics' counters.
struct RunCounts {
  uint64_t frames = 0;            // processed
  uint64_t source_dropped = 0;    // lost by the source (the sum of `dropped`)
  uint64_t source_corrupted = 0;  // skipped by the source as damaged (the sum of `corrupted`)
  HealthEventCounts events{};

  void add(const FrameResult& frame);
  void add(const std::vector<HealthEvent>& events);
};

// The metrics text for the run so far: its counts and the figures of `last`, the latest frame.
std::string promText(const FrameResult& last, const RunCounts& counts);

class PromOutput : public FrameSink {
 public:
  explicit PromOutput(PromSinkOptions options) : options_(std::move(options)) {}
  Status write(const FrameResult& frame) override;
  Status writeEvents(const std::vector<HealthEvent>& events) override;
  Status finish() override;

 private:
  Status flush();

  PromSinkOptions options_;
  RunCounts counts_;
  FrameResult last_;
  bool have_last_ = false;
  bool written_since_last_ = false;
  std::chrono::steady_clock::time_point next_write_{};
};

}  // namespace esf
