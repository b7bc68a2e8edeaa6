// strategy=auto on the test GPU: cache entries are used when they fit, defaults otherwise;
// the sweeps' winners compute the same result as the CPU references.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/stages/blur_reference.hpp"
#include "core/stages/histogram_reference.hpp"
#include "core/tuning/auto_params.hpp"
#include "core/tuning/sweep.hpp"
#include "core/tuning/synthetic_frames.hpp"
#include "core/tuning/tuned_params.hpp"
#include "core/tuning/tuning_cache.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

namespace fs = std::filesystem;

std::string tempCachePath(const char* name) {
  fs::path p =
      fs::temp_directory_path() / ("esf-auto-" + std::to_string(getpid()) + "-" + name + ".json");
  fs::remove(p);
  return p.string();
}

// The 640x480 histogram parameters chosen with the cache at `path` (removed after) must be valid
// here, the reason naming `part`.
void expectValidChoiceNaming(GlContext& gl, const std::string& path, const std::string& part) {
  std::string why;
  HistogramParams p = chooseHistogramParams(gl, 640, 480, &why, HistogramParams{}, path);
  EXPECT_TRUE(p.validate(gl.limits()).ok());
  EXPECT_NE(why.find(part), std::string::npos) << why;
  fs::remove(path);
}

TEST(AutoParams, WithoutACacheUsesTheVendorDefault) {
  GlContext& gl = test::glContext();
  std::string path = tempCachePath("none");
  std::string why;
  HistogramParams base;
  base.bins = 32;
  base.channels = "gl";
  HistogramParams p = chooseHistogramParams(gl, 1920, 1080, &why, base, path);
  EXPECT_TRUE(p.validate(gl.limits()).ok());
  EXPECT_EQ(p.bins, 32);
  EXPECT_EQ(p.channels, "gl");
  EXPECT_NE(why.find("no tuning cache entry"), std::string::npos) << why;
  if (gl.isLlvmpipe()) {
    EXPECT_NE(why.find("llvmpipe default"), std::string::npos) << why;
    EXPECT_EQ(p.workgroup_size, 64);
    EXPECT_EQ(p.workgroups, 128);
  }
  BlurParams b = chooseBlurParams(gl, 1920, 1080, &why, BlurParams{}, path);
  EXPECT_TRUE(b.validate(gl.limits()).ok());
  EXPECT_NE(why.find("blur:"), std::string::npos) << why;
}

TEST(AutoParams, UsesTheCacheEntryForThisDeviceAndSizeClass) {
  GlContext& gl = test::glContext();
  std::string path = tempCachePath("hit");
  HistogramParams tuned;
  tuned.strategy = HistogramStrategy::kChunkSum;
  tuned.tile_width = 32;
  tuned.tile_height = 2;
  tuned.sum_workgroup_size = 64;
  TuningCache cache = TuningCache::load(path, nullptr);
  cache.put({DeviceKey::of(gl), "1280x720", "histogram", tunedFieldsToJson(tuned), 2.0, "1280x720",
             "2026-11-22T00:00:00Z"});
  ASSERT_TRUE(cache.save().ok());

  std::string why;
  HistogramParams p = chooseHistogramParams(gl, 1024, 768, &why, HistogramParams{}, path);
  EXPECT_EQ(p.strategy, HistogramStrategy::kChunkSum);
  EXPECT_EQ(p.tile_width, 32);
  EXPECT_EQ(p.tile_height, 2);
  EXPECT_NE(why.find("tuned"), std::string::npos) << why;
  // Another size class has no entry.
  p = chooseHistogramParams(gl, 3840, 2160, &why, HistogramParams{}, path);
  EXPECT_NE(why.find("no tuning cache entry"), std::string::npos) << why;
  fs::remove(path);
}

TEST(AutoParams, AnEntryBeyondTheDriverLimitsFallsBackToDefaults) {
  GlContext& gl = test::glContext();
  std::string path = tempCachePath("limits");
  HistogramParams tuned;
  tuned.workgroup_size = gl.limits().work_group_invocations * 2;
  TuningCache cache = TuningCache::load(path, nullptr);
  cache.put(
      {DeviceKey::of(gl), "640x480", "histogram", tunedFieldsToJson(tuned), 2.0, "640x480", ""});
  ASSERT_TRUE(cache.save().ok());
  expectValidChoiceNaming(gl, path, "no tuning cache entry");
}

TEST(AutoParams, ACorruptCacheFallsBackToDefaults) {
  GlContext& gl = test::glContext();
  std::string path = tempCachePath("corrupt");
  std::ofstream(path) << "{\"format\": \"esframe-tuning-1\", \"entries\": [";
  expectValidChoiceNaming(gl, path, "default");
}

TEST(Sweep, CandidatesStayWithinTheLimits) {
  ComputeLimits small = test::glContext().limits();
  small.work_group_invocations = 256;
  small.shared_memory_size = 16 * 1024;
  std::vector<HistogramParams> h = persistentCandidates(HistogramParams{}, small, false);
  ASSERT_GT(h.size(), 10u);
  std::set<int> sizes;
  for (const HistogramParams& p : h) {
    EXPECT_LE(p.workgroup_size, 256);
    EXPECT_TRUE(p.workgroup_size == 1 || p.workgroup_size % 16 == 0);
    EXPECT_EQ(p.shared_atomics, p.workgroup_size > 1);
    sizes.insert(p.workgroup_size);
  }
  EXPECT_EQ(sizes, (std::set<int>{1, 16, 32, 64, 128, 256}));
  std::vector<BlurParams> b = blurCandidates(BlurParams{}, small, false);
  ASSERT_GT(b.size(), 5u);
  for (const BlurParams& p : b) {
    EXPECT_TRUE(p.validate(small).ok());
    if (p.strategy == BlurStrategy::kTiled) {
      EXPECT_EQ(p.tile_width % p.workgroup_size, 0);
    }
    EXPECT_LE(p.filter_dim, p.maxFilterDim());
  }
}

TEST(Sweep, ReplicatedCandidatesFitTheSharedMemory) {
  ComputeLimits v3d = test::glContext().limits();
  v3d.work_group_invocations = 256;
  v3d.shared_memory_size = 32 * 1024;
  HistogramParams base;
  base.workgroup_size = 256;
  std::vector<HistogramParams> h = replicatedCandidates(base, v3d, false);
  std::set<int> replicas;
  for (const HistogramParams& p : h) {
    EXPECT_EQ(p.strategy, HistogramStrategy::kReplicated);
    EXPECT_LE(p.sharedBytes(), 32 * 1024);
    EXPECT_TRUE(p.validate(v3d).ok());
    replicas.insert(p.replicas);
  }
  // 8 padded copies of rgbl x 256 need 32800 bytes: 7 is the most on v3d.
  EXPECT_EQ(replicas, (std::set<int>{1, 2, 3, 4, 6, 7}));
  EXPECT_EQ(h.size(), 24u);  // x run length on and off x interleaved and planar
}

// A few points per sweep, each timed twice at the most: enough to pick a winner to check.
TuneOptions quickTuneOptions() {
  TuneOptions o;
  o.quick = true;
  o.measure = {0, 2, 0.05, 1};
  return o;
}

// A tuning that ran at least `min_sweeps` sweeps, every point of them exact and timed.
template <class TuneResult>
void expectSweepsOk(const Result<TuneResult>& r, size_t min_sweeps) {
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_GE(r.value().sweeps.size(), min_sweeps);
  for (const Sweep& s : r.value().sweeps)
    for (const SweepPoint& p : s.points) EXPECT_TRUE(p.ok()) << p.label << ": " << p.error;
}

TEST(Sweep, ReduceWinnerMatchesTheReference) {
  GlContext& gl = test::glContext();
  RgbaImage frame = syntheticFrame(FrameContent::kNatural, 67, 35, 7);
  Result<ReduceTuneResult> r = tuneReduce(gl, frame, ReduceParams{}, quickTuneOptions());
  ASSERT_NO_FATAL_FAILURE(expectSweepsOk(r, 3));
  ASSERT_EQ(r.value().sweeps.size(), 3u);
  Result<ReduceParams> back = reduceFromJson(tunedFieldsToJson(r.value().best), ReduceParams{});
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(describe(back.value()), describe(r.value().best));
}

TEST(Sweep, HistogramWinnerMatchesTheReference) {
  GlContext& gl = test::glContext();
  RgbaImage frame = syntheticFrame(FrameContent::kNatural, 67, 35, 7);
  Result<HistogramTuneResult> r = tuneHistogram(gl, frame, HistogramParams{}, quickTuneOptions());
  ASSERT_NO_FATAL_FAILURE(expectSweepsOk(r, 3));
  // Run the winner independently, on a poisoned buffer.
  Result<Histogram> h = Histogram::create(gl, r.value().best);
  ASSERT_TRUE(h.ok()) << h.error().message;
  ASSERT_TRUE(h.value().poison(frame.width, frame.height, test::kPoison).ok());
  Result<GpuImage> tex = GpuImage::fromImage(frame);
  Result<PackedRgbaBuffer> buf = PackedRgbaBuffer::fromImage(frame);
  ASSERT_TRUE(tex.ok() && buf.ok());
  Status s = r.value().best.source == ImageSource::kTexture ? h.value().run(tex.value())
                                                            : h.value().run(buf.value());
  ASSERT_TRUE(s.ok()) << s.error().message;
  Result<std::vector<uint32_t>> counts = h.value().read();
  ASSERT_TRUE(counts.ok());
  EXPECT_EQ(counts.value(), histogramReference(frame, 256, "rgbl", LumaWeights::kBt709));
}

TEST(Sweep, BlurWinnerMatchesTheReference) {
  GlContext& gl = test::glContext();
  RgbaImage frame = syntheticFrame(FrameContent::kRandom, 70, 33, 3);
  BlurParams base;
  base.iterations = 1;
  Result<BlurTuneResult> r = tuneBlur(gl, frame, base, quickTuneOptions());
  ASSERT_TRUE(r.ok()) << r.error().message;
  Result<Blur> blur = Blur::create(gl, r.value().best);
  ASSERT_TRUE(blur.ok());
  Result<GpuImage> in = GpuImage::fromImage(frame);
  RgbaImage poisoned(70, 33);
  std::fill(poisoned.pixels.begin(), poisoned.pixels.end(), uint8_t(0xA5));
  Result<GpuImage> out = GpuImage::fromImage(poisoned);
  ASSERT_TRUE(in.ok() && out.ok());
  ASSERT_TRUE(blur.value().run(in.value(), out.value()).ok());
  Result<RgbaImage> got = out.value().download();
  ASSERT_TRUE(got.ok());
  EXPECT_TRUE(got.value() == blurReference(frame, 15, 1));
}

}  // namespace
}  // namespace esf
