// A camera opened with SourceConfig::reconnect: one FrameSource across the device's losses. The
// device's own source is closed at the loss (its node may be gone, and a driver bound again
// reuses the node only once nothing holds the old one) and opened again by the same spec after
// the backoff; OutageTracker says camera_offline and camera_online.
#include <utility>

#include "capture/outage_tracker.hpp"
#include "capture/source_kinds.hpp"

namespace esf {
namespace {

class ReopeningSource final : public FrameSource, public OutageReporting {
 public:
  ReopeningSource(std::unique_ptr<FrameSource> first, SourceOpener open, int give_up_ms)
      : device_(std::move(first)),
        open_(std::move(open)),
        name_(device_->name()),
        io_(device_->ioDescription()),
        outages_(name_, give_up_ms) {
    outages_.setShape(device_->width(), device_->height(), device_->format());
  }

  Result<std::optional<Frame>> next() override {
    for (;;) {
      if (device_) {
        Result<std::optional<Frame>> frame = device_->next();
        if (frame && frame->has_value()) return deliver(**frame);
        if (frame) return frame;  // the end of a stream: a camera has none
        // Only a device that went away is an outage: another failure (no frame within the
        // timeout from a device still there, a driver that stopped its queue) ends the run.
        if (frame.error().code != ErrorCode::kDeviceLost && !device_->deviceLost())
          return frame.error();
        if (outages_.stopRequested()) return frame.error();
        device_.reset();
        lost(frame.error().message);
        continue;
      }
      if (outages_.stopRequested()) return fail(ErrorCode::kTimeout, name_, ": stopped");
      if (Status s = outages_.waitBeforeRetry(); !s) return s.error();
      if (outages_.stopRequested()) continue;
      Result<std::unique_ptr<FrameSource>> device = open_();
      if (!device) {
        lost(device.error().message);
        continue;
      }
      if (Status s = outages_.checkCameBackSame((*device)->width(), (*device)->height(),
                                                (*device)->format());
          !s)
        return s.error();
      device_ = std::move(*device);
      reopened_ = true;
    }
  }

  std::string name() const override { return name_; }
  bool isLive() const override { return true; }
  int width() const override { return outages_.width(); }
  int height() const override { return outages_.height(); }
  PixelFormat format() const override { return outages_.format(); }
  std::string ioDescription() const override { return io_; }

  void setOutageHooks(OutageHooks hooks) override { outages_.setHooks(std::move(hooks)); }

 private:
  // Frame::sequence goes on across the outages: a device opened again counts from its driver's
  // start, so its frames are moved on to follow the last one delivered.
  Result<std::optional<Frame>> deliver(Frame& frame) {
    if (std::exchange(reopened_, false)) offset_ = last_seq_ + 1 - frame.sequence;
    frame.sequence += offset_;
    last_seq_ = frame.sequence;
    outages_.delivered(frame.sequence);
    return std::optional<Frame>(std::move(frame));
  }

  void lost(std::string why) {
    if (why.starts_with(name_ + ": ")) why.erase(0, name_.size() + 2);
    outages_.lost(why, last_seq_);
  }

  std::unique_ptr<FrameSource> device_;  // null during an outage
  SourceOpener open_;
  std::string name_;
  std::string io_;
  OutageTracker outages_;
  bool reopened_ = false;
  uint64_t offset_ = 0;  // added to the device's sequence numbers (modulo 2^64)
  uint64_t last_seq_ = 0;
};

}  // namespace

std::unique_ptr<FrameSource> reopenWhenLost(std::unique_ptr<FrameSource> first, SourceOpener open,
                                            const SourceOptions& options) {
  return std::make_unique<ReopeningSource>(std::move(first), std::move(open),
                                           options.network_give_up_ms);
}

}  // namespace esf
