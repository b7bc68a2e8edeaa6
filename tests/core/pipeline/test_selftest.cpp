// esframe selftest's library side on this driver: the quick selftest is exact within its pixel
// budget, a deliberately miscounting GPU histogram (ESFRAME_FAULT_INJECTION builds) is caught
// with the bin it got wrong, the verdict survives the tuning cache for this version only, and
// --backend auto's gate refuses a GPU whose verdict failed, checks one never checked, and trusts
// one unchecked only when told to.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/pipeline/selftest_verdict.hpp"
#include "esframe/version.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

namespace fs = std::filesystem;

SelftestReport quickSelftest() {
  SelftestOptions o;
  o.quick = true;
  return runSelftest(test::glContext(), o);
}

bool hasCheck(const SelftestReport& r, const std::string& prefix) {
  for (const SelftestCheck& c : r.checks)
    if (c.name.rfind(prefix, 0) == 0) return true;
  return false;
}

TEST(Selftest, QuickIsExactOnThisDriverWithinItsBudget) {
  const SelftestReport r = quickSelftest();
  for (const SelftestCheck& c : r.checks) {
    SCOPED_TRACE(c.name);
    if (c.name.find("dmabuf") != std::string::npos) continue;  // no DRM device under surfaceless
    EXPECT_EQ(c.outcome, SelftestCheck::Outcome::kExact) << c.detail;
    EXPECT_GT(c.frames, 0);
  }
  EXPECT_TRUE(r.passed()) << r.firstFailure();
  EXPECT_TRUE(r.firstFailure().empty());
  for (const char* stage : {"histogram", "import YUYV", "import NV12", "blur", "resize", "Bayer"})
    EXPECT_TRUE(hasCheck(r, stage)) << stage;
  EXPECT_GT(r.pixels(), 640u * 480u);
  EXPECT_LE(r.pixels(), kQuickSelftestPixels);
  EXPECT_EQ(r.esframe_version, ESFRAME_VERSION_STRING);
  const nlohmann::json j = selftestJson(r);
  EXPECT_EQ(j["passed"], true);
  EXPECT_TRUE(j["first_failure"].is_null());
  EXPECT_EQ(j["checks"].size(), r.checks.size());
}

TEST(Selftest, AllStrategiesChecksEveryHistogramStrategy) {
  SelftestOptions o;
  o.quick = true;
  o.all_strategies = true;
  o.large = Size{96, 64};
  const SelftestReport r = runSelftest(test::glContext(), o);
  for (const char* s :
       {"single", "global-atomic", "chunk-sum", "chunk-reduce", "persistent", "replicated"})
    EXPECT_TRUE(hasCheck(r, std::string("histogram ") + s + " bins=1 ")) << s;
  EXPECT_TRUE(r.passed()) << r.firstFailure();
}

#if ESF_FAULT_INJECTION
TEST(Selftest, AMiscountingGpuHistogramIsCaughtWithTheBinItGotWrong) {
  ASSERT_EQ(setenv("ESFRAME_TEST_GPU_FAULT", "histogram", 1), 0);
  const SelftestReport r = quickSelftest();
  unsetenv("ESFRAME_TEST_GPU_FAULT");
  EXPECT_FALSE(r.passed());
  const std::string failure = r.firstFailure();
  EXPECT_NE(failure.find("WRONG"), std::string::npos) << failure;
  // Word 0 of the counts is bin 0 of the first channel: one count too many.
  EXPECT_NE(failure.find("histogram r bin 0: "), std::string::npos) << failure;
  const nlohmann::json j = selftestJson(r);
  EXPECT_EQ(j["passed"], false);
  EXPECT_EQ(j["first_failure"], failure);
  // Without the fault the same driver is exact again: it was the fault, not the driver.
  EXPECT_TRUE(quickSelftest().passed());
}
#endif

class SelftestVerdicts : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("esf-selftest-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    path_ = (dir_ / "tuning.json").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  SelftestReport report(bool passed) {
    SelftestReport r;
    r.device = DeviceKey::of(test::glContext());
    r.esframe_version = ESFRAME_VERSION_STRING;
    r.at = "2026-11-25T10:00:00Z";
    r.quick = true;
    SelftestCheck c;
    c.name = "histogram persistent (auto) bins=256 rgbl";
    c.outcome = passed ? SelftestCheck::Outcome::kExact : SelftestCheck::Outcome::kWrong;
    c.detail = passed ? "4 frames" : "random RGBA32 1x1: histogram r bin 0: 2, expected 1";
    r.checks.push_back(c);
    return r;
  }
  void store(const CacheEntry& e) {
    TuningCache cache = TuningCache::load(path_, nullptr);
    cache.put(e);
    ASSERT_TRUE(cache.save().ok());
  }
  fs::path dir_;
  std::string path_;
};

TEST_F(SelftestVerdicts, AVerdictRoundTripsThroughTheCacheForThisVersionOnly) {
  store(verdictEntry(report(false)));
  const DeviceKey device = DeviceKey::of(test::glContext());
  std::optional<SelftestVerdict> v = findVerdict(TuningCache::load(path_, nullptr), device);
  ASSERT_TRUE(v.has_value());
  EXPECT_FALSE(v->passed);
  EXPECT_EQ(v->first_failure,
            "histogram persistent (auto) bins=256 rgbl: WRONG, random RGBA32 1x1: histogram r bin "
            "0: 2, expected 1");
  EXPECT_EQ(describeVerdict(*v).rfind("FAILED: histogram persistent", 0), 0u)
      << describeVerdict(*v);
  // Another GPU or driver has no verdict.
  EXPECT_FALSE(findVerdict(TuningCache::load(path_, nullptr),
                           DeviceKey{device.vendor, device.renderer, device.driver + " (other)"}));
  // Another esframe version's verdict does not count; a malformed one is none.
  CacheEntry other = verdictEntry(report(true));
  other.params["esframe_version"] = "0.0.1";
  store(other);
  EXPECT_FALSE(findVerdict(TuningCache::load(path_, nullptr), device));
  other.params = {{"esframe_version", ESFRAME_VERSION_STRING}, {"passed", "yes"}};
  store(other);
  EXPECT_FALSE(findVerdict(TuningCache::load(path_, nullptr), device));
}

TEST_F(SelftestVerdicts, AutoRefusesAFailedGpuAndChecksAnUncheckedOne) {
  GlContext& gl = test::glContext();
  const BackendChoice gles{Backend::kGles, "the tuning cache says gles"};
  // Never checked, and told not to check: trusted, and the reason says so.
  BackendChoice c = checkAutoChoice(gles, gl, false, path_);
  EXPECT_EQ(c.backend, Backend::kGles);
  EXPECT_NE(c.reason.find("not checked by esframe selftest"), std::string::npos) << c.reason;
  EXPECT_FALSE(fs::exists(path_));
  // Never checked: the quick selftest runs once and its verdict is stored.
  c = checkAutoChoice(gles, gl, true, path_);
  EXPECT_EQ(c.backend, Backend::kGles) << c.reason;
  EXPECT_NE(c.reason.find("esframe selftest passed"), std::string::npos) << c.reason;
  std::optional<SelftestVerdict> v =
      findVerdict(TuningCache::load(path_, nullptr), DeviceKey::of(gl));
  ASSERT_TRUE(v.has_value());
  EXPECT_TRUE(v->passed);
  EXPECT_TRUE(v->quick);
  // A failed verdict: the CPU executor, and the reason names the failure.
  store(verdictEntry(report(false)));
  c = checkAutoChoice(gles, gl, true, path_);
  EXPECT_EQ(c.backend, Backend::kCpu);
  EXPECT_NE(c.reason.find("failed esframe selftest: histogram persistent"), std::string::npos)
      << c.reason;
  // A CPU choice passes through untouched.
  c = checkAutoChoice({Backend::kCpu, "software"}, gl, true, path_);
  EXPECT_EQ(c.backend, Backend::kCpu);
  EXPECT_EQ(c.reason, "software");
}

}  // namespace
}  // namespace esf
