// A stop requested from another thread (as a signal handler or a supervisor would) ends a
// running esf::run() after the frame in hand. Label "threads": the tsan preset runs it under
// ThreadSanitizer, which fails it on a data race between requestStop and the run loop.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "esframe/pipeline.hpp"

namespace esf {
namespace {

class CountingSink : public FrameSink {
 public:
  Status write(const FrameResult& frame) override {
    last_seq = frame.seq;
    frames.fetch_add(1);
    return {};
  }
  std::atomic<uint64_t> frames{0};
  uint64_t last_seq = 0;  // only the run's thread touches it
};

TEST(StopFromThread, AnotherThreadStopsARunningLoop) {
  PipelineConfig config;
  config.backend = Backend::kCpu;  // no GL: Mesa is not built for ThreadSanitizer
  config.histogram.channels = "l";
  Result<std::unique_ptr<Pipeline>> p = Pipeline::create(config);
  ASSERT_TRUE(p.ok()) << p.error().message;
  SourceConfig sc;
  sc.width = 33, sc.height = 7;
  Result<std::unique_ptr<FrameSource>> source = (*p)->openSource("pattern", sc);
  ASSERT_TRUE(source.ok()) << source.error().message;
  StopToken stop;
  CountingSink sink;
  FrameSink* sinks[] = {&sink};
  std::thread stopper([&] {
    while (sink.frames.load() < 5) std::this_thread::yield();
    stop.requestStop();
  });
  Result<RunReport> r = run(**p, **source, sinks, stop);
  stopper.join();
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->end, RunReport::End::kStopped);
  EXPECT_GE(r->frames, 5u);
  EXPECT_EQ(r->frames, sink.frames.load());
  EXPECT_EQ(sink.last_seq + 1, r->frames);  // pattern frames count from 0, none skipped
}

}  // namespace
}  // namespace esf
