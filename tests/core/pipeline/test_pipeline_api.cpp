// The public API as an application uses it: only esframe/ headers. Results are checked against
// counts the test makes itself from the frame's bytes (docs/output-formats.md's luma formula),
// never against the library's own references.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "esframe/esframe.hpp"

namespace esf {
namespace {

// Seeded random RGBA32 bytes of a WxH frame, and a Frame over them.
struct TestFrame {
  std::vector<uint8_t> bytes;
  Frame frame;
};

TestFrame randomFrame(int w, int h, uint32_t seed) {
  TestFrame t;
  std::mt19937 rng(seed);
  t.bytes.resize(size_t(w) * size_t(h) * 4);
  for (uint8_t& b : t.bytes) b = uint8_t(rng() & 0xff);
  t.frame.format = PixelFormat::kRGBA32;
  t.frame.width = w;
  t.frame.height = h;
  t.frame.planes[0].data = t.bytes.data();
  t.frame.planes[0].size = t.bytes.size();
  t.frame.planes[0].stride = w * 4;
  t.frame.plane_count = 1;
  t.frame.sequence = 7;
  t.frame.timestamp_ns = 123456789;
  t.frame.source = "test";
  return t;
}

// R, G, B and BT.709 luma (docs/output-formats.md), 256 bins, interleaved [bin][r g b l].
std::vector<uint32_t> expectedRgbl(const std::vector<uint8_t>& rgba) {
  std::vector<uint32_t> counts(256 * 4, 0);
  for (size_t i = 0; i + 3 < rgba.size(); i += 4) {
    const uint32_t r = rgba[i], g = rgba[i + 1], b = rgba[i + 2];
    const uint32_t l = (13933 * r + 46871 * g + 4732 * b + 32768) >> 16;
    ++counts[r * 4 + 0];
    ++counts[g * 4 + 1];
    ++counts[b * 4 + 2];
    ++counts[l * 4 + 3];
  }
  return counts;
}

TEST(PipelineApi, BadConfigIsInvalidArgumentNamingTheField) {
  struct Case {
    PipelineConfig config;
    const char* names;
  };
  std::vector<Case> cases(5);
  cases[0].config.histogram.bins = 0, cases[0].names = "bins";
  cases[1].config.histogram.bins = 257, cases[1].names = "bins";
  cases[2].config.histogram.channels = "rgbx", cases[2].names = "x";
  cases[3].config.blur = BlurConfig{4, 1}, cases[3].names = "taps";
  cases[4].config.resize = Size{0, 10}, cases[4].names = "resize";
  for (Case& c : cases) {
    c.config.backend = Backend::kCpu;
    Result<std::unique_ptr<Pipeline>> p = Pipeline::create(c.config);
    ASSERT_FALSE(p.ok()) << c.names;
    EXPECT_EQ(p.error().code, ErrorCode::kInvalidArgument) << p.error().message;
    EXPECT_NE(p.error().message.find(c.names), std::string::npos) << p.error().message;
    EXPECT_EQ(p.error().message.find("--"), std::string::npos)
        << "library messages never name CLI flags: " << p.error().message;
  }
}

// A resize target is an RGBA image: within the frame limit (esframe/base/sizes.hpp), checked
// before a backend is made. CI also runs the HostileSize suite under qemu-arm.
TEST(HostileSize, ResizeTargetOverTheLimitIsRefused) {
  PipelineConfig config;
  config.backend = Backend::kCpu;
  config.resize = Size{16385, 2};
  Status s = config.validate();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(s.error().message, "resize target: frame size 16385x2 is outside 1x1..16384x16384");
  config.resize = Size{16384, 1};
  EXPECT_TRUE(config.validate().ok());
}

// kAuto keeps the GPU only when GL_RENDERER is not a software renderer, and says why.
TEST(PipelineApi, AutoTakesTheExecutorOnASoftwareRendererAndSaysWhy) {
  PipelineConfig gles_config;
  gles_config.backend = Backend::kGles;
  Result<std::unique_ptr<Pipeline>> gles = Pipeline::create(gles_config);
  // Read while its context is current (auto's probe context comes and goes after it).
  const std::string device = gles.ok() ? (*gles)->deviceDescription() : "";
  PipelineConfig auto_config;
  auto_config.threads = 3;
  Result<std::unique_ptr<Pipeline>> automatic = Pipeline::create(auto_config);
  ASSERT_TRUE(automatic.ok()) << automatic.error().message;
  const std::string why = (*automatic)->backendDescription();
  EXPECT_NE(why.find("(auto: "), std::string::npos) << why;
  if (!gles.ok()) {  // no GLES 3.1 at all: the executor, and the reason names the failure
    EXPECT_EQ((*automatic)->backend(), Backend::kCpu);
    EXPECT_NE(why.find("no GLES 3.1"), std::string::npos) << why;
    return;
  }
  const bool software =
      device.find("llvmpipe") != std::string::npos || device.find("softpipe") != std::string::npos;
  EXPECT_EQ((*automatic)->backend(), software ? Backend::kCpu : Backend::kGles) << device;
  if (software) {
    EXPECT_NE(why.find("is software"), std::string::npos) << why;
    EXPECT_EQ((*automatic)->deviceDescription(), "cpu: the executor, 3 threads");
  }
  EXPECT_EQ((*gles)->backend(), Backend::kGles);
  EXPECT_EQ((*gles)->backendDescription().find("(auto: "), std::string::npos)
      << "a forced backend has no auto reason";
}

TEST(PipelineApi, EveryBackendCountsTheFrameExactly) {
  for (Backend backend : {Backend::kCpu, Backend::kGles, Backend::kReference, Backend::kAuto}) {
    SCOPED_TRACE(backendName(backend));
    PipelineConfig config;
    config.backend = backend;
    Result<std::unique_ptr<Pipeline>> p = Pipeline::create(config);
    ASSERT_TRUE(p.ok()) << p.error().message;
    for (auto [w, h] : {std::pair{257, 3}, std::pair{1, 1}, std::pair{64, 48}}) {
      TestFrame t = randomFrame(w, h, 42);
      Result<FrameResult> r = (*p)->process(t.frame);
      ASSERT_TRUE(r.ok()) << r.error().message;
      EXPECT_EQ(r->hist.bins, 256);
      EXPECT_EQ(r->hist.channels, "rgbl");
      EXPECT_EQ(r->hist.counts, expectedRgbl(t.bytes)) << w << "x" << h;
      EXPECT_EQ(r->seq, 7u);
      EXPECT_EQ(r->ts_ns, 123456789u);
      EXPECT_EQ(r->width, w);
      EXPECT_EQ(r->height, h);
      EXPECT_EQ(r->format, "RGBA32");
      ASSERT_EQ(r->stats.size(), 4u);
      EXPECT_EQ(r->stats[0].count, uint64_t(w) * uint64_t(h));
      EXPECT_EQ((*p)->backend() == Backend::kGles, r->gpu != nullptr);
    }
  }
}

// Counts frames and records what the run loop did with it.
class RecordingSink : public FrameSink {
 public:
  explicit RecordingSink(StopToken* stop_after = nullptr, uint64_t n = 0,
                         ErrorCode fail_with = ErrorCode::kInternal, bool fail = false)
      : stop_(stop_after), n_(n), fail_code_(fail_with), fail_(fail) {}
  Status write(const FrameResult& frame) override {
    seqs.push_back(frame.seq);
    if (fail_ && seqs.size() == n_) return fail(fail_code_, "recording sink: told to fail");
    if (stop_ && seqs.size() == n_) stop_->requestStop();
    return Status::success();
  }
  Status finish() override {
    ++finished;
    return Status::success();
  }
  std::vector<uint64_t> seqs;
  int finished = 0;

 private:
  StopToken* stop_;
  uint64_t n_;
  ErrorCode fail_code_;
  bool fail_;
};

std::unique_ptr<Pipeline> cpuPipeline() {
  PipelineConfig config;
  config.backend = Backend::kCpu;
  config.histogram.channels = "l";
  Result<std::unique_ptr<Pipeline>> p = Pipeline::create(config);
  EXPECT_TRUE(p.ok()) << p.error().message;
  return p.ok() ? std::move(p.value()) : nullptr;
}

TEST(RunLoop, StopsOnTheTokenAfterTheFrameInHandAndFinishesEverySink) {
  std::unique_ptr<Pipeline> p = cpuPipeline();
  ASSERT_TRUE(p);
  SourceConfig sc;
  sc.width = 32, sc.height = 16;
  Result<std::unique_ptr<FrameSource>> source = p->openSource("pattern", sc);
  ASSERT_TRUE(source.ok()) << source.error().message;
  StopToken stop;
  RecordingSink a(&stop, 3), b;
  FrameSink* sinks[] = {&a, &b};
  Result<RunReport> r = run(*p, **source, sinks, stop);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->end, RunReport::End::kStopped);
  EXPECT_EQ(r->frames, 3u);
  EXPECT_EQ(a.seqs, (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(b.seqs, a.seqs) << "every sink gets the frame in hand";
  EXPECT_EQ(a.finished, 1);
  EXPECT_EQ(b.finished, 1);
}

TEST(RunLoop, FrameLimitEndOfStreamClosedOutputAndFailure) {
  std::unique_ptr<Pipeline> p = cpuPipeline();
  ASSERT_TRUE(p);
  SourceConfig sc;
  sc.width = 8, sc.height = 8;
  StopToken never;
  {  // the frame limit
    auto source = p->openSource("pattern", sc);
    ASSERT_TRUE(source.ok());
    RecordingSink s;
    FrameSink* sinks[] = {&s};
    Result<RunReport> r = run(*p, **source, sinks, never, RunLimits{5});
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->end, RunReport::End::kFrameLimit);
    EXPECT_EQ(r->frames, 5u);
    EXPECT_EQ(s.seqs.size(), 5u);
  }
  {  // a closed output ends the run without failing it; the next sink still gets the frame
    auto source = p->openSource("pattern", sc);
    ASSERT_TRUE(source.ok());
    RecordingSink closed(nullptr, 2, ErrorCode::kOutputClosed, true), other;
    FrameSink* sinks[] = {&closed, &other};
    Result<RunReport> r = run(*p, **source, sinks, never);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->end, RunReport::End::kOutputClosed);
    EXPECT_EQ(r->frames, 2u);
    EXPECT_EQ(other.seqs.size(), 2u);
    EXPECT_EQ(other.finished, 1);
  }
  {  // a failing sink: its error and code come back, every sink is still finished
    auto source = p->openSource("pattern", sc);
    ASSERT_TRUE(source.ok());
    RecordingSink failing(nullptr, 4, ErrorCode::kIo, true), other;
    FrameSink* sinks[] = {&failing, &other};
    Result<RunReport> r = run(*p, **source, sinks, never);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::kIo);
    EXPECT_EQ(r.error().message, "recording sink: told to fail");
    EXPECT_EQ(failing.finished, 1);
    EXPECT_EQ(other.finished, 1);
    EXPECT_EQ(other.seqs.size(), 3u) << "the failing frame stops before later sinks";
  }
}

TEST(RunLoop, MissingSourceIsNotFoundAndNamesThePath) {
  std::unique_ptr<Pipeline> p = cpuPipeline();
  ASSERT_TRUE(p);
  Result<std::unique_ptr<FrameSource>> source = p->openSource("/nonexistent/clip.y4m", {});
  ASSERT_FALSE(source.ok());
  EXPECT_NE(source.error().message.find("/nonexistent/clip.y4m"), std::string::npos);
  EXPECT_EQ(source.error().message.find("--"), std::string::npos) << source.error().message;
}

void collect(LogLevel, std::string_view message, void* user_data) {
  static_cast<std::vector<std::string>*>(user_data)->emplace_back(message);
}

TEST(Log, HandlerTakesTheLinesAndNullRestoresStderr) {
  std::vector<std::string> lines;
  setLogHandler(collect, &lines);
  logWarning("one");
  logDebug("below the level: dropped");
  setLogHandler(nullptr);
  logWarning("to stderr");
  EXPECT_EQ(lines, (std::vector<std::string>{"one"}));
}

}  // namespace
}  // namespace esf
