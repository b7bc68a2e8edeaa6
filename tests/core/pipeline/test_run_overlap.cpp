// esf::run() reads frame N+1 while the GPU works on frame N (files, pipes), and one frame at a
// time for cameras (isLive). Checked with a scripted source that overwrites one buffer on every
// next() (as file sources do): each delivered result must still count its own frame's bytes,
// in order, with the frame limit, end of stream and a failing read handled as before. The
// expected counts come from the test's own loop over the bytes, not from the library.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "esframe/esframe.hpp"

namespace esf {
namespace {

constexpr int kW = 67, kH = 29;

// Frame i: seeded random RGBA bytes, written into the same buffer every time.
class ScriptedSource : public FrameSource {
 public:
  ScriptedSource(int frames, bool live, bool fail_after)
      : frames_(frames), live_(live), fail_(fail_after) {
    bytes_.resize(size_t(kW) * kH * 4);
  }
  static std::vector<uint8_t> bytesOf(int i) {
    std::vector<uint8_t> b(size_t(kW) * kH * 4);
    std::mt19937 rng(uint32_t(1000 + i));
    for (uint8_t& v : b) v = uint8_t(rng() & 0xff);
    return b;
  }
  Result<std::optional<Frame>> next() override {
    ++reads;
    if (next_ == frames_) {
      if (fail_) return fail(ErrorCode::kIo, "scripted source: read failed after the last frame");
      return std::optional<Frame>();
    }
    bytes_ = bytesOf(next_);
    Frame f;
    f.format = PixelFormat::kRGBA32;
    f.width = kW;
    f.height = kH;
    f.planes[0] = FramePlane{bytes_.data(), bytes_.size(), kW * 4};
    f.plane_count = 1;
    f.sequence = uint64_t(next_++);
    f.source = "scripted";
    return std::optional<Frame>(f);
  }
  std::string name() const override { return "scripted"; }
  bool isLive() const override { return live_; }
  int width() const override { return kW; }
  int height() const override { return kH; }
  PixelFormat format() const override { return PixelFormat::kRGBA32; }
  int reads = 0;

 private:
  int frames_, next_ = 0;
  bool live_, fail_;
  std::vector<uint8_t> bytes_;
};

// Checks every delivered result against the counts of its own frame's bytes.
class CheckingSink : public FrameSink {
 public:
  Status write(const FrameResult& r) override {
    seqs.push_back(r.seq);
    const std::vector<uint8_t> bytes = ScriptedSource::bytesOf(int(r.seq));
    std::vector<uint32_t> want(256 * 3, 0);
    for (size_t i = 0; i < bytes.size(); i += 4)
      for (int c = 0; c < 3; ++c) ++want[size_t(bytes[i + size_t(c)]) * 3 + size_t(c)];
    if (r.hist.counts != want) ++wrong;
    bool has_read = !r.timings.empty() && r.timings.front().stage == "read";
    if (!has_read) ++missing_read_timing;
    return Status::success();
  }
  Status finish() override {
    ++finished;
    return Status::success();
  }
  std::vector<uint64_t> seqs;
  int wrong = 0, missing_read_timing = 0, finished = 0;
};

class RunOverlap : public ::testing::TestWithParam<std::tuple<Backend, bool>> {
 protected:
  std::unique_ptr<Pipeline> pipeline() {
    PipelineConfig config;
    config.backend = std::get<0>(GetParam());
    config.histogram.channels = "rgb";
    Result<std::unique_ptr<Pipeline>> p = Pipeline::create(config);
    EXPECT_TRUE(p.ok()) << p.error().message;
    return p.ok() ? std::move(p.value()) : nullptr;
  }
  bool live() const { return std::get<1>(GetParam()); }
  // `source` run into `sink` alone by a new pipeline of this backend, never stopped.
  Result<RunReport> runInto(ScriptedSource& source, CheckingSink& sink, RunLimits limits = {}) {
    std::unique_ptr<Pipeline> p = pipeline();
    if (!p) return fail(ErrorCode::kInternal, "no pipeline");
    FrameSink* sinks[] = {&sink};
    StopToken never;
    return run(*p, source, sinks, never, limits);
  }
};

TEST_P(RunOverlap, EveryFrameCountsItsOwnBytesInOrder) {
  ScriptedSource source(6, live(), false);
  CheckingSink sink;
  Result<RunReport> r = runInto(source, sink);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->end, RunReport::End::kEndOfStream);
  EXPECT_EQ(r->frames, 6u);
  EXPECT_GT(r->seconds, 0.0);
  EXPECT_GT(r->steady_seconds, 0.0);
  EXPECT_LE(r->steady_seconds, r->seconds);
  EXPECT_EQ(sink.seqs, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(sink.wrong, 0) << "a result counted another frame's bytes";
  EXPECT_EQ(sink.missing_read_timing, 0);
  EXPECT_EQ(source.reads, 7) << "six frames and the end";
  EXPECT_EQ(sink.finished, 1);
}

TEST_P(RunOverlap, FrameLimitReadsNoFrameBeyondIt) {
  ScriptedSource source(10, live(), false);
  CheckingSink sink;
  Result<RunReport> r = runInto(source, sink, RunLimits{4});
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->end, RunReport::End::kFrameLimit);
  EXPECT_EQ(r->frames, 4u);
  EXPECT_EQ(sink.wrong, 0);
  EXPECT_EQ(source.reads, 4) << "a camera frame read past the limit would be lost";
}

TEST_P(RunOverlap, FailedReadDeliversTheFramesBeforeItThenFails) {
  ScriptedSource source(3, live(), true);
  CheckingSink sink;
  Result<RunReport> r = runInto(source, sink);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_EQ(sink.seqs, (std::vector<uint64_t>{0, 1, 2})) << "the frame in flight is delivered";
  EXPECT_EQ(sink.wrong, 0);
  EXPECT_EQ(sink.finished, 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, RunOverlap,
                         ::testing::Combine(::testing::Values(Backend::kGles, Backend::kCpu),
                                            ::testing::Bool()),
                         [](const auto& info) {
                           return std::string(backendName(std::get<0>(info.param))) +
                                  (std::get<1>(info.param) ? "_Live" : "_File");
                         });

}  // namespace
}  // namespace esf
