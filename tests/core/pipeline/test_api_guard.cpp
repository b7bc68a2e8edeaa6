// No exception leaves the public API (base/api_guard.hpp): an application's source or sink that
// throws, and an allocation that fails inside the pipeline, come back from esf::run() and
// Pipeline::process() as an Error: std::bad_alloc as kOutOfMemory, anything else as kInternal
// with its what(); the other sinks are still finished.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <new>
#include <optional>
#include <stdexcept>
#include <vector>

#include "esframe/esframe.hpp"
#include "tests/support/fixed_stream_source.hpp"

namespace esf {
namespace {

enum class Throw { kNothing, kBadAlloc, kRuntimeError };

void maybeThrow(Throw what, const char* text) {
  if (what == Throw::kBadAlloc) throw std::bad_alloc();
  if (what == Throw::kRuntimeError) throw std::runtime_error(text);
}

std::unique_ptr<Pipeline> referencePipeline() {
  PipelineConfig config;
  config.backend = Backend::kReference;  // no GPU: the guard is the same on every backend
  config.histogram.bins = 16;
  config.histogram.channels = "l";
  Result<std::unique_ptr<Pipeline>> pipeline = Pipeline::create(config);
  if (!pipeline) ADD_FAILURE() << pipeline.error().message;
  return pipeline ? std::move(pipeline.value()) : nullptr;
}

// A square RGBA32 frame of `pixels` (side x side x 4 bytes), tightly packed.
Frame rgbaFrame(std::vector<uint8_t>& pixels, int side) {
  Frame f;
  f.format = PixelFormat::kRGBA32;
  f.width = f.height = side;
  f.planes[0].data = pixels.data();
  f.planes[0].size = pixels.size();
  f.planes[0].stride = side * 4;
  f.plane_count = 1;
  return f;
}

// One grey 4x4 RGBA frame, then the end of the stream; next() throws when told to.
class TestSource : public test::FixedStreamSource {
 public:
  explicit TestSource(Throw in_next)
      : FixedStreamSource("test", 4, 4, PixelFormat::kRGBA32),
        throw_(in_next),
        pixels_(4 * 4 * 4, 100) {}
  Result<std::optional<Frame>> next() override {
    maybeThrow(throw_, "the test source broke");
    if (done_) return std::optional<Frame>();
    done_ = true;
    Frame f = rgbaFrame(pixels_, 4);
    f.source = "test";
    return std::optional<Frame>(f);
  }

 private:
  Throw throw_;
  std::vector<uint8_t> pixels_;
  bool done_ = false;
};

class TestSink : public FrameSink {
 public:
  explicit TestSink(Throw in_write) : throw_(in_write) {}
  Status write(const FrameResult&) override {
    ++writes;
    maybeThrow(throw_, "the test sink broke");
    return Status::success();
  }
  Status finish() override {
    ++finishes;
    return Status::success();
  }
  int writes = 0;
  int finishes = 0;

 private:
  Throw throw_;
};

Result<RunReport> runOnce(Throw in_source, Throw in_sink, TestSink& other) {
  std::unique_ptr<Pipeline> pipeline = referencePipeline();
  if (!pipeline) return fail(ErrorCode::kInternal, "no pipeline");
  TestSource source(in_source);
  TestSink sink(in_sink);
  FrameSink* sinks[] = {&sink, &other};
  const StopToken stop;
  Result<RunReport> report = run(*pipeline, source, sinks, stop);
  EXPECT_EQ(sink.finishes, 1) << "the throwing sink is finished too";
  return report;
}

// The run failed with `code` and exactly `message`.
void expectRunError(const Result<RunReport>& report, ErrorCode code, const std::string& message) {
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.error().code, code) << errorCodeName(report.error().code);
  EXPECT_EQ(report.error().message, message);
}

TEST(ApiGuard, ASinkThrowingRuntimeErrorEndsTheRunAsInternalWithItsWhat) {
  TestSink other(Throw::kNothing);
  Result<RunReport> report = runOnce(Throw::kNothing, Throw::kRuntimeError, other);
  ASSERT_NO_FATAL_FAILURE(expectRunError(
      report, ErrorCode::kInternal, "a sink's write: unexpected exception: the test sink broke"));
  EXPECT_EQ(other.writes, 0);  // the run ended at the first sink
  EXPECT_EQ(other.finishes, 1);
}

TEST(ApiGuard, ASinkThrowingBadAllocIsOutOfMemoryNamingTheOperation) {
  TestSink other(Throw::kNothing);
  Result<RunReport> report = runOnce(Throw::kNothing, Throw::kBadAlloc, other);
  ASSERT_NO_FATAL_FAILURE(
      expectRunError(report, ErrorCode::kOutOfMemory, "a sink's write: out of memory"));
  EXPECT_STREQ(errorCodeName(report.error().code), "out-of-memory");
  EXPECT_EQ(other.finishes, 1);
}

TEST(ApiGuard, ASourceThrowingIsAnErrorAndEverySinkIsFinished) {
  TestSink other(Throw::kNothing);
  Result<RunReport> report = runOnce(Throw::kRuntimeError, Throw::kNothing, other);
  ASSERT_NO_FATAL_FAILURE(
      expectRunError(report, ErrorCode::kInternal,
                     "reading a frame: unexpected exception: the test source broke"));
  EXPECT_EQ(other.finishes, 1);
  report = runOnce(Throw::kBadAlloc, Throw::kNothing, other);
  ASSERT_NO_FATAL_FAILURE(
      expectRunError(report, ErrorCode::kOutOfMemory, "reading a frame: out of memory"));
}

TEST(ApiGuard, TheSameSinksRunCleanlyWhenNothingThrows) {
  TestSink other(Throw::kNothing);
  Result<RunReport> report = runOnce(Throw::kNothing, Throw::kNothing, other);
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->frames, 1u);
  EXPECT_EQ(other.writes, 1);
}

// The pipeline's own allocations, made to fail without a huge frame: a child process whose
// address space is capped just above what it already maps processes a 1024x1024 frame (4 MiB;
// the reference backend's working images need more than the 2 MiB left). Exits 0 when process()
// said kOutOfMemory.
[[noreturn]] void processUnderACappedAddressSpace() {
  std::unique_ptr<Pipeline> pipeline = referencePipeline();
  std::vector<uint8_t> pixels(1024 * 1024 * 4, 100);
  const Frame f = rgbaFrame(pixels, 1024);
  long pages = 0;
  if (std::FILE* statm = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(statm, "%ld", &pages) != 1) pages = 0;
    std::fclose(statm);
  }
  const rlim_t cap = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (2u << 20);
  const rlimit limit{cap, cap};
  if (!pipeline || pages == 0 || setrlimit(RLIMIT_AS, &limit) != 0) _exit(3);
  Result<FrameResult> result = pipeline->process(f);
  if (result.ok()) _exit(4);
  std::fprintf(stderr, "%s: %s\n", errorCodeName(result.error().code),
               result.error().message.c_str());
  _exit(result.error().code == ErrorCode::kOutOfMemory ? 0 : 5);
}

TEST(ApiGuard, AnAllocationThatFailsInProcessIsOutOfMemory) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizers reserve address space: an RLIMIT_AS cap breaks them";
#endif
#ifdef ESF_TEST_UNDER_EMULATOR
  GTEST_SKIP() << "an emulator's own mappings count against the RLIMIT_AS cap";
#endif
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(processUnderACappedAddressSpace(), ::testing::ExitedWithCode(0),
              "out-of-memory: pipeline process: out of memory");
}

}  // namespace
}  // namespace esf
