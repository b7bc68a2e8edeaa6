#include "capture/outage_tracker.hpp"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <utility>

#include "base/pixel_format.hpp"
#include "esframe/base/log.hpp"

namespace esf {

uint64_t monotonicNs() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return uint64_t(t.tv_sec) * 1000000000u + uint64_t(t.tv_nsec);
}

std::string secondsText(uint64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", double(ns) / 1e9);
  return text;
}

OutageTracker::OutageTracker(std::string shown, int give_up_ms)
    : shown_(std::move(shown)),
      give_up_ns_(uint64_t(std::max(give_up_ms, 0)) * 1000000u),
      last_frame_ns_(monotonicNs()) {}

void OutageTracker::report(const HealthEvent& event) {
  if (hooks_.report) hooks_.report(event);
}

void OutageTracker::lost(const std::string& what, uint64_t last_seq) {
  if (offline_since_) {  // an attempt to connect again that failed
    logDebug(shown_ + ": reconnecting failed: " + what);
    return;
  }
  offline_since_ = monotonicNs();
  logWarning(shown_ + ": " + what + "; reconnecting");
  HealthEvent e;
  e.type = HealthEventType::kCameraOffline;
  e.seq = last_seq;
  e.ts_ns = *offline_since_;
  e.start_ns = *offline_since_;
  report(e);
}

void OutageTracker::delivered(uint64_t seq) {
  const uint64_t now = monotonicNs();
  last_frame_ns_ = now;
  delay_ms_ = kReconnectFirstDelayMs;
  if (!offline_since_) return;
  const uint64_t start = *std::exchange(offline_since_, std::nullopt);
  logInfo(shown_ + ": back after " + secondsText(now - start));
  HealthEvent e;
  e.type = HealthEventType::kCameraOnline;
  e.seq = seq;
  e.ts_ns = now;
  e.start_ns = start;
  e.end_ns = now;
  report(e);
}

Status OutageTracker::waitBeforeRetry() {
  const uint64_t until = monotonicNs() + uint64_t(delay_ms_) * 1000000u;
  delay_ms_ = std::min(delay_ms_ * 2, kReconnectMaxDelayMs);
  for (;;) {
    const uint64_t now = monotonicNs();
    if (give_up_ns_ && now - last_frame_ns_ >= give_up_ns_)
      return fail(ErrorCode::kDeviceLost, shown_, ": no frame for ",
                  secondsText(now - last_frame_ns_), "; gave up");
    if (now >= until || stopRequested()) return Status::success();
    std::this_thread::sleep_for(
        std::chrono::milliseconds(std::min<uint64_t>(kSliceMs, (until - now + 999999) / 1000000)));
  }
}

Status OutageTracker::checkCameBackSame(int width, int height, PixelFormat format) const {
  if (width == width_ && height == height_ && format == format_) return Status::success();
  auto shape = [](int w, int h, PixelFormat f) {
    return std::to_string(w) + "x" + std::to_string(h) + " " + formatName(f);
  };
  return fail(ErrorCode::kUnsupported, shown_, ": the stream came back as ",
              shape(width, height, format), ", not ", shape(width_, height_, format_));
}

}  // namespace esf
