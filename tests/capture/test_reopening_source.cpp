// SourceConfig::reconnect's wrapper (capture/reopening_source.cpp) over a scripted camera: a loss
// is one camera_offline, failed attempts follow the backoff, the camera that comes back gives one
// camera_online and frames whose seq goes on; other failures and the give-up end the stream.
#include <gtest/gtest.h>

#include <chrono>
#include <deque>
#include <memory>
#include <vector>

#include "capture/open_source.hpp"
#include "capture/outage_tracker.hpp"
#include "capture/source_kinds.hpp"

namespace esf {
namespace {

// A camera whose next() hands out `sequences` as its driver's frame numbers, then fails with
// `end` (kDeviceLost: unplugged).
class ScriptedCamera final : public FrameSource {
 public:
  ScriptedCamera(std::vector<uint64_t> sequences, ErrorCode end, int width = 64)
      : sequences_(sequences.begin(), sequences.end()), end_(end), width_(width) {}
  Result<std::optional<Frame>> next() override {
    if (sequences_.empty()) return fail(end_, "/dev/video9: device lost (VIDIOC_DQBUF: gone)");
    Frame f;
    f.width = width_;
    f.height = 48;
    f.format = PixelFormat::kNV12;
    f.sequence = sequences_.front();
    sequences_.pop_front();
    return std::optional<Frame>(f);
  }
  std::string name() const override { return "/dev/video9"; }
  bool isLive() const override { return true; }
  int width() const override { return width_; }
  int height() const override { return 48; }
  PixelFormat format() const override { return PixelFormat::kNV12; }

 private:
  std::deque<uint64_t> sequences_;
  ErrorCode end_;
  int width_;
};

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

struct Recorded {
  std::vector<HealthEvent> events;
  std::vector<double> attempts;  // seconds after the loss
};

// The wrapper over a first camera (seq 0..3, then lost); `opens` are the attempts' results in
// turn (null: the device node is not there).
std::unique_ptr<FrameSource> reopening(std::vector<std::unique_ptr<FrameSource>> opens,
                                       Recorded& rec,
                                       std::chrono::steady_clock::time_point& lost_at,
                                       int give_up_ms = 0) {
  SourceOptions options;
  options.network_give_up_ms = give_up_ms;
  auto queue = std::make_shared<std::deque<std::unique_ptr<FrameSource>>>();
  for (auto& o : opens) queue->push_back(std::move(o));
  SourceOpener open = [queue, &rec, &lost_at]() -> Result<std::unique_ptr<FrameSource>> {
    rec.attempts.push_back(secondsSince(lost_at));
    if (queue->empty() || !queue->front()) {
      if (!queue->empty()) queue->pop_front();
      return fail(ErrorCode::kNotFound, "/dev/video9: no such device");
    }
    std::unique_ptr<FrameSource> next = std::move(queue->front());
    queue->pop_front();
    return next;
  };
  auto source = reopenWhenLost(
      std::make_unique<ScriptedCamera>(std::vector<uint64_t>{0, 1, 2, 3}, ErrorCode::kDeviceLost),
      std::move(open), options);
  dynamic_cast<OutageReporting&>(*source).setOutageHooks(
      OutageHooks{[&](const HealthEvent& e) {
                    rec.events.push_back(e);
                    if (e.type == HealthEventType::kCameraOffline)
                      lost_at = std::chrono::steady_clock::now();
                  },
                  {}});
  return source;
}

TEST(ReopeningSource, AnUnplugIsOneOutageAndTheFramesGoOn) {
  Recorded rec;
  auto lost_at = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<FrameSource>> opens;
  opens.push_back(nullptr);  // the node is not back at the first attempt
  // The driver counts from 0 again, and the camera is unplugged once more after 3 frames.
  opens.push_back(
      std::make_unique<ScriptedCamera>(std::vector<uint64_t>{0, 1, 2}, ErrorCode::kDeviceLost));
  opens.push_back(
      std::make_unique<ScriptedCamera>(std::vector<uint64_t>{7, 8, 10}, ErrorCode::kDeviceLost));
  auto source = reopening(std::move(opens), rec, lost_at);
  std::vector<uint64_t> seqs;
  for (int i = 0; i < 10; ++i) {
    Result<std::optional<Frame>> f = source->next();
    ASSERT_TRUE(f) << f.error().message;
    ASSERT_TRUE(f->has_value());
    seqs.push_back((*f)->sequence);
  }
  // 0..3 as the first device gave them, then each device's frames after the last one delivered
  // (the second's driver gap of 1 frame before 10 stays a gap).
  EXPECT_EQ(seqs, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 10}));
  ASSERT_EQ(rec.events.size(), 4u);
  EXPECT_EQ(rec.events[0].type, HealthEventType::kCameraOffline);
  EXPECT_EQ(rec.events[0].seq, 3u);
  EXPECT_EQ(rec.events[1].type, HealthEventType::kCameraOnline);
  EXPECT_EQ(rec.events[1].seq, 4u);
  EXPECT_EQ(rec.events[1].start_ns, rec.events[0].start_ns);
  EXPECT_GT(rec.events[1].end_ns, rec.events[1].start_ns);
  EXPECT_EQ(rec.events[2].type, HealthEventType::kCameraOffline);
  EXPECT_EQ(rec.events[2].seq, 6u);
  EXPECT_EQ(rec.events[3].type, HealthEventType::kCameraOnline);
  EXPECT_EQ(rec.events[3].seq, 7u);
  // Attempts 0.5 s after the first loss and 1 s after that one failed; after the second loss
  // the backoff starts over at 0.5 s.
  ASSERT_EQ(rec.attempts.size(), 3u);
  EXPECT_GE(rec.attempts[0], 0.5);
  EXPECT_LT(rec.attempts[0], 1.0);
  EXPECT_GE(rec.attempts[1], 1.5);
  EXPECT_LT(rec.attempts[1], 2.0);
  EXPECT_GE(rec.attempts[2], 0.5);
  EXPECT_LT(rec.attempts[2], 1.0);
  // The outage's length is the loss to the first frame back: the two attempts' waits.
  EXPECT_GE(double(rec.events[1].end_ns - rec.events[1].start_ns) / 1e9, 1.5);
}

TEST(ReopeningSource, OtherFailuresEndTheStream) {
  SourceOptions options;
  int attempts = 0;
  auto source = reopenWhenLost(
      std::make_unique<ScriptedCamera>(std::vector<uint64_t>{5}, ErrorCode::kTimeout),
      [&]() -> Result<std::unique_ptr<FrameSource>> {
        ++attempts;
        return fail(ErrorCode::kNotFound, "not called");
      },
      options);
  ASSERT_TRUE(source->next());
  Result<std::optional<Frame>> f = source->next();
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().code, ErrorCode::kTimeout);
  EXPECT_EQ(attempts, 0);
}

TEST(ReopeningSource, ACameraThatComesBackOtherwiseEndsTheStream) {
  Recorded rec;
  auto lost_at = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<FrameSource>> opens;
  opens.push_back(std::make_unique<ScriptedCamera>(std::vector<uint64_t>{0}, ErrorCode::kDeviceLost,
                                                   /*width=*/32));
  auto source = reopening(std::move(opens), rec, lost_at);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(source->next());
  Result<std::optional<Frame>> f = source->next();
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(f.error().message, "/dev/video9: the stream came back as 32x48 NV12, not 64x48 NV12");
}

TEST(ReopeningSource, GivesUpAfterTheTimeoutWithoutAFrame) {
  Recorded rec;
  auto lost_at = std::chrono::steady_clock::now();
  auto source = reopening({}, rec, lost_at, /*give_up_ms=*/1200);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(source->next());
  const auto start = std::chrono::steady_clock::now();
  Result<std::optional<Frame>> f = source->next();
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().code, ErrorCode::kDeviceLost);
  EXPECT_NE(f.error().message.find("gave up"), std::string::npos) << f.error().message;
  // Attempts at 0.5 s and 1.5 s after the loss; the give-up at 1.2 s comes in the second wait.
  EXPECT_EQ(rec.attempts.size(), 1u);
  EXPECT_GE(secondsSince(start), 1.2);
  EXPECT_LT(secondsSince(start), 1.6);
}

TEST(ReopeningSource, LibcameraCamerasRefuseIt) {
  SourceOptions options;
  options.reconnect = true;
  Result<std::unique_ptr<FrameSource>> source = openSource("libcamera", options);
  ASSERT_FALSE(source);
  EXPECT_EQ(source.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(source.error().message,
            "libcamera: reconnecting is not supported for libcamera cameras yet");
}

}  // namespace
}  // namespace esf
