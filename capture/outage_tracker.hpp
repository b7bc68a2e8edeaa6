#pragma once
// The outages of a live source that reconnects by itself (a network stream; a camera opened with
// SourceConfig::reconnect): their camera_offline and camera_online events, the capped backoff
// between attempts, and the give-up. One per source; the source decides what a loss is and how
// to connect again.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "base/source_outages.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"

namespace esf {

// The backoff between a lost source's attempts to connect again: 0.5 s after the loss, doubled
// after each failed attempt, at most 30 s.
inline constexpr int kReconnectFirstDelayMs = 500;
inline constexpr int kReconnectMaxDelayMs = 30000;

// CLOCK_MONOTONIC in nanoseconds: the clock of the outages' events.
uint64_t monotonicNs();

class OutageTracker {
 public:
  // `shown`: the source's name in lines and errors. `give_up_ms`: 0 retries for ever, else an
  // outage this long after the last frame ends the run (ErrorCode::kDeviceLost).
  OutageTracker(std::string shown, int give_up_ms);

  void setHooks(OutageHooks hooks) { hooks_ = std::move(hooks); }
  bool stopRequested() const { return hooks_.stop_requested && hooks_.stop_requested(); }
  bool offline() const { return offline_since_.has_value(); }
  const std::string& shown() const { return shown_; }

  // The source lost its camera (`what`: the cause, as a line says it): camera_offline with the
  // seq of the last frame delivered, at the first loss of an outage; a failed attempt during one
  // is a debug line.
  void lost(const std::string& what, uint64_t last_seq);
  // A frame is delivered: after an outage, camera_online with its length and `seq`, the seq of
  // the frame it comes with. The backoff starts over.
  void delivered(uint64_t seq);
  // Waits out the backoff before the next attempt (stopRequested() cuts it short), and doubles
  // it for the one after; fails once the outage passed the give-up.
  Status waitBeforeRetry();

  // The stream's size and format, fixed by its first connection: one that comes back otherwise
  // ends the run (the sinks and the GPU's plan were made for it).
  void setShape(int width, int height, PixelFormat format) {
    width_ = width, height_ = height, format_ = format;
  }
  int width() const { return width_; }
  int height() const { return height_; }
  PixelFormat format() const { return format_; }
  Status checkCameBackSame(int width, int height, PixelFormat format) const;
  Status checkCameBackSame(const Frame& frame) const {
    return checkCameBackSame(frame.width, frame.height, frame.format);
  }

 private:
  static constexpr int kSliceMs = 100;  // a wait's step: how soon a stop is seen

  void report(const HealthEvent& event);

  std::string shown_;
  uint64_t give_up_ns_;
  OutageHooks hooks_;
  uint64_t last_frame_ns_;
  std::optional<uint64_t> offline_since_;
  int delay_ms_ = kReconnectFirstDelayMs;
  int width_ = 0, height_ = 0;
  PixelFormat format_ = PixelFormat::kYU12;
};

// "3.9 s": a span of CLOCK_MONOTONIC for a line.
std::string secondsText(uint64_t ns);

}  // namespace esf
