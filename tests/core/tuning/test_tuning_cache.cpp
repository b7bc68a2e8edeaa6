// The tuning cache file: round trip, corrupt files ignored with a warning, reset, keys.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include "core/tuning/tuned_params.hpp"
#include "core/tuning/tuning_cache.hpp"
#include "tests/support/temp_path.hpp"

namespace esf {
namespace {

namespace fs = std::filesystem;

class TuningCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::freshTempPath("esf-tuning", /*per_test=*/true);
    path_ = (dir_ / "sub" / "tuning.json").string();  // the directory does not exist yet
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& text) {
    fs::create_directories(fs::path(path_).parent_path());
    std::ofstream(path_) << text;
  }

  fs::path dir_;
  std::string path_;
};

CacheEntry entry(const std::string& renderer, const std::string& size_class, int workgroups) {
  HistogramParams p;
  p.strategy = HistogramStrategy::kChunkReduce;
  p.source = ImageSource::kPackedBuffer;
  p.workgroups = workgroups;
  p.tile_width = 64;
  p.tile_height = 4;
  return {{"Mesa", renderer, "OpenGL ES 3.2 Mesa 22.3.6"},
          size_class,
          "histogram",
          tunedFieldsToJson(p),
          1.25,
          "1920x1080",
          "2026-11-22T01:00:00Z"};
}

TEST_F(TuningCacheTest, MissingFileIsEmptyWithoutWarning) {
  std::string warning;
  TuningCache c = TuningCache::load(path_, &warning);
  EXPECT_TRUE(c.entries().empty());
  EXPECT_EQ(warning, "");
}

TEST_F(TuningCacheTest, RoundTripKeepsEveryField) {
  TuningCache c = TuningCache::load(path_, nullptr);
  c.put(entry("llvmpipe", "1920x1080", 7));
  c.put(entry("llvmpipe", "640x480", 3));
  c.put(entry("V3D 4.2", "1920x1080", 5));
  ASSERT_TRUE(c.save().ok());

  std::string warning;
  TuningCache back = TuningCache::load(path_, &warning);
  EXPECT_EQ(warning, "");
  ASSERT_EQ(back.entries().size(), 3u);
  const CacheEntry* e =
      back.find({"Mesa", "llvmpipe", "OpenGL ES 3.2 Mesa 22.3.6"}, "640x480", "histogram");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->median_ms, 1.25);
  EXPECT_EQ(e->frame, "1920x1080");
  EXPECT_EQ(e->tuned_at, "2026-11-22T01:00:00Z");
  Result<HistogramParams> p = histogramFromJson(e->params, HistogramParams{});
  ASSERT_TRUE(p.ok()) << p.error().message;
  EXPECT_EQ(p.value().strategy, HistogramStrategy::kChunkReduce);
  EXPECT_EQ(p.value().source, ImageSource::kPackedBuffer);
  EXPECT_EQ(p.value().workgroups, 3);
  EXPECT_EQ(p.value().tile_width, 64);
  EXPECT_EQ(p.value().tile_height, 4);
}

TEST_F(TuningCacheTest, KeyIncludesDriverVersionAndStage) {
  TuningCache c = TuningCache::load(path_, nullptr);
  c.put(entry("llvmpipe", "1920x1080", 7));
  EXPECT_EQ(c.find({"Mesa", "llvmpipe", "OpenGL ES 3.2 Mesa 23.0.0"}, "1920x1080", "histogram"),
            nullptr);
  EXPECT_EQ(c.find({"Mesa", "llvmpipe", "OpenGL ES 3.2 Mesa 22.3.6"}, "1920x1080", "blur"),
            nullptr);
  EXPECT_EQ(c.find({"Mesa", "llvmpipe", "OpenGL ES 3.2 Mesa 22.3.6"}, "3840x2160", "histogram"),
            nullptr);
}

TEST_F(TuningCacheTest, PutReplacesTheSameKey) {
  TuningCache c = TuningCache::load(path_, nullptr);
  c.put(entry("llvmpipe", "1920x1080", 7));
  c.put(entry("llvmpipe", "1920x1080", 9));
  ASSERT_EQ(c.entries().size(), 1u);
  EXPECT_EQ(c.entries()[0].params["workgroups"], 9);
}

TEST_F(TuningCacheTest, CorruptFilesAreIgnoredWithAWarning) {
  for (const char* text : {"", "{", "not json at all", "[1,2,3]", "{\"format\":\"other\"}",
                           "{\"format\":\"esframe-tuning-1\",\"entries\":5}", "\x01\x02\xff",
                           "{\"format\":5540067326}", "{\"format\":null}"}) {
    write(text);
    std::string warning;
    TuningCache c = TuningCache::load(path_, &warning);
    EXPECT_TRUE(c.entries().empty()) << text;
    EXPECT_NE(warning.find("corrupt tuning cache " + path_), std::string::npos) << warning;
  }
}

TEST_F(TuningCacheTest, MalformedEntriesAreDroppedOthersKept) {
  TuningCache c = TuningCache::load(path_, nullptr);
  c.put(entry("llvmpipe", "1920x1080", 7));
  nlohmann::json doc = c.toJson();
  doc["entries"].push_back({{"gl_vendor", 3}});
  doc["entries"].push_back("junk");
  write(doc.dump());
  std::string warning;
  TuningCache back = TuningCache::load(path_, &warning);
  EXPECT_EQ(back.entries().size(), 1u);
  EXPECT_NE(warning.find("dropped 2 malformed entries"), std::string::npos) << warning;
}

TEST_F(TuningCacheTest, SavingOverACorruptFileReplacesIt) {
  write("garbage");
  std::string warning;
  TuningCache c = TuningCache::load(path_, &warning);
  EXPECT_FALSE(warning.empty());
  c.put(entry("llvmpipe", "1920x1080", 7));
  ASSERT_TRUE(c.save().ok());
  warning.clear();
  EXPECT_EQ(TuningCache::load(path_, &warning).entries().size(), 1u);
  EXPECT_EQ(warning, "");
}

TEST_F(TuningCacheTest, ResetRemovesTheFileAndToleratesNone) {
  TuningCache c = TuningCache::load(path_, nullptr);
  c.put(entry("llvmpipe", "1920x1080", 7));
  ASSERT_TRUE(c.save().ok());
  ASSERT_TRUE(fs::exists(path_));
  EXPECT_TRUE(TuningCache::reset(path_).ok());
  EXPECT_FALSE(fs::exists(path_));
  EXPECT_TRUE(TuningCache::reset(path_).ok());
}

TEST_F(TuningCacheTest, SaveFailsWithAMessageWhenTheDirectoryCannotBeMade) {
  write("x");  // dir_/sub/tuning.json is a file: a cache inside it cannot be created
  TuningCache c = TuningCache::load(path_ + "/tuning.json", nullptr);
  c.put(entry("llvmpipe", "1920x1080", 7));
  Status s = c.save();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find(path_), std::string::npos) << s.error().message;
  // ENOTDIR: an I/O failure, not a missing file or a refusal.
  EXPECT_EQ(s.error().code, ErrorCode::kIo) << errorCodeName(s.error().code);
}

TEST(TuningCachePath, FollowsXdgCacheHome) {
  const char* old = std::getenv("XDG_CACHE_HOME");
  std::string saved = old ? old : "";
  setenv("XDG_CACHE_HOME", "/some/where", 1);
  EXPECT_EQ(TuningCache::defaultPath(), "/some/where/esframe/tuning.json");
  setenv("XDG_CACHE_HOME", "relative/is/invalid", 1);
  std::string home = std::getenv("HOME") ? std::getenv("HOME") : "/tmp";
  EXPECT_EQ(TuningCache::defaultPath(), home + "/.cache/esframe/tuning.json");
  if (old)
    setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else
    unsetenv("XDG_CACHE_HOME");
}

TEST(SizeClass, SmallestClassHoldingTheFrame) {
  EXPECT_EQ(sizeClass(1, 1), "640x480");
  EXPECT_EQ(sizeClass(640, 480), "640x480");
  EXPECT_EQ(sizeClass(641, 480), "1280x720");
  EXPECT_EQ(sizeClass(1920, 1080), "1920x1080");
  EXPECT_EQ(sizeClass(2560, 1440), "3840x2160");
  EXPECT_EQ(sizeClass(3840, 2161), "larger");
}

TEST(TunedParams, MissingOrMistypedFieldsAreNamed) {
  nlohmann::json j = tunedFieldsToJson(HistogramParams{});
  j.erase("workgroups");
  Result<HistogramParams> p = histogramFromJson(j, HistogramParams{});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("workgroups"), std::string::npos);
  // Stored parameters that do not parse are corrupt data, whichever field is wrong.
  EXPECT_EQ(p.error().code, ErrorCode::kCorruptData) << errorCodeName(p.error().code);
  j = tunedFieldsToJson(HistogramParams{});
  j["strategy"] = "warp-speed";
  p = histogramFromJson(j, HistogramParams{});
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("warp-speed"), std::string::npos) << p.error().message;
  EXPECT_EQ(p.error().code, ErrorCode::kCorruptData) << errorCodeName(p.error().code);
  nlohmann::json b = tunedFieldsToJson(BlurParams{});
  b["tile_rows"] = "four";
  Result<BlurParams> blur = blurFromJson(b, BlurParams{});
  ASSERT_FALSE(blur.ok());
  EXPECT_EQ(blur.error().code, ErrorCode::kCorruptData) << errorCodeName(blur.error().code);
}

TEST(TunedParams, LaterFieldsRoundTripKeepTheBaseWhenAbsentAndAreNamedWhenMistyped) {
  // Fields added in rounds 2 and 3: a cache written before them still loads, with the base's
  // values; a field of the wrong type is corrupt data naming the field.
  BlurParams tuned;
  tuned.strategy = BlurStrategy::kSplit;
  tuned.prefetch = 8;
  tuned.buffer_intermediate = true;
  Result<BlurParams> back = blurFromJson(tunedFieldsToJson(tuned), BlurParams{});
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back.value().prefetch, 8);
  EXPECT_TRUE(back.value().buffer_intermediate);
  nlohmann::json old_blur = tunedFieldsToJson(tuned);
  old_blur.erase("prefetch");
  old_blur.erase("buffer_intermediate");
  BlurParams base;
  base.prefetch = 3;
  back = blurFromJson(old_blur, base);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back.value().prefetch, 3);
  EXPECT_FALSE(back.value().buffer_intermediate);
  old_blur["buffer_intermediate"] = 1;
  back = blurFromJson(old_blur, base);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().message.find("'buffer_intermediate' is not a boolean"), std::string::npos)
      << back.error().message;
  EXPECT_EQ(back.error().code, ErrorCode::kCorruptData);

  ReduceParams reduce;
  reduce.batch_loads = true;
  reduce.accumulators = 16;
  nlohmann::json r = tunedFieldsToJson(reduce);
  Result<ReduceParams> rback = reduceFromJson(r, ReduceParams{});
  ASSERT_TRUE(rback.ok()) << rback.error().message;
  EXPECT_TRUE(rback.value().batch_loads);
  EXPECT_EQ(rback.value().accumulators, 16);
  r["accumulators"] = "many";
  rback = reduceFromJson(r, ReduceParams{});
  ASSERT_FALSE(rback.ok());
  EXPECT_NE(rback.error().message.find("'accumulators' is not an integer"), std::string::npos)
      << rback.error().message;
  r = tunedFieldsToJson(reduce);
  r.erase("subgroups");  // required since round 2
  rback = reduceFromJson(r, ReduceParams{});
  ASSERT_FALSE(rback.ok());
  EXPECT_NE(rback.error().message.find("'subgroups' missing or not a boolean"), std::string::npos)
      << rback.error().message;

  HistogramParams h;
  h.batch_loads = true;
  nlohmann::json hj = tunedFieldsToJson(h);
  Result<HistogramParams> hback = histogramFromJson(hj, HistogramParams{});
  ASSERT_TRUE(hback.ok()) << hback.error().message;
  EXPECT_TRUE(hback.value().batch_loads);
  hj["planar"] = "yes";
  hback = histogramFromJson(hj, HistogramParams{});
  ASSERT_FALSE(hback.ok());
  EXPECT_NE(hback.error().message.find("'planar' is not a boolean"), std::string::npos)
      << hback.error().message;
}

TEST(TunedParams, UserFieldsComeFromTheBase) {
  HistogramParams base;
  base.bins = 64;
  base.channels = "l";
  HistogramParams tuned;
  tuned.workgroups = 3;
  Result<HistogramParams> p = histogramFromJson(tunedFieldsToJson(tuned), base);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.value().bins, 64);
  EXPECT_EQ(p.value().channels, "l");
  EXPECT_EQ(p.value().workgroups, 3);
}

}  // namespace
}  // namespace esf

namespace esf {
namespace {

TEST_F(TuningCacheTest, ASymlinkAtTheOldTemporaryNameIsNotFollowed) {
  // save() once wrote "<path>.tmp.<pid>" through whatever was there, then renamed it into
  // place: a symlink planted at that name made it overwrite the file it points to.
  fs::create_directories(fs::path(path_).parent_path());
  const std::string victim = (dir_ / "victim").string();
  std::ofstream(victim) << "victim";
  fs::create_symlink(victim, path_ + ".tmp." + std::to_string(getpid()));
  TuningCache c = TuningCache::load(path_, nullptr);
  c.put(entry("llvmpipe", "1920x1080", 7));
  ASSERT_TRUE(c.save().ok());
  std::ifstream in(victim);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "victim");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(path_)));
  EXPECT_EQ(TuningCache::load(path_, nullptr).entries().size(), 1u);
}

TEST_F(TuningCacheTest, TwoRunsLoadedBeforeEitherSavedKeepBothRecords) {
  // Two `esframe tune` runs: both load, each tunes its own size class, both save.
  TuningCache first = TuningCache::load(path_, nullptr);
  TuningCache second = TuningCache::load(path_, nullptr);
  first.put(entry("llvmpipe", "640x480", 3));
  second.put(entry("llvmpipe", "1920x1080", 9));
  ASSERT_TRUE(first.save().ok());
  ASSERT_TRUE(second.save().ok());
  TuningCache back = TuningCache::load(path_, nullptr);
  ASSERT_EQ(back.entries().size(), 2u);
  const DeviceKey device{"Mesa", "llvmpipe", "OpenGL ES 3.2 Mesa 22.3.6"};
  ASSERT_NE(back.find(device, "640x480", "histogram"), nullptr);
  EXPECT_EQ(back.find(device, "640x480", "histogram")->params["workgroups"], 3);
  ASSERT_NE(back.find(device, "1920x1080", "histogram"), nullptr);
  EXPECT_EQ(back.find(device, "1920x1080", "histogram")->params["workgroups"], 9);
}

TEST_F(TuningCacheTest, ConcurrentWritersKeepEveryRecord) {
  // Writers on threads at once (flock locks open files, so threads contend as processes do):
  // each puts its own renderer's records and saves after each one.
  constexpr int kWriters = 6, kRecords = 4;
  std::vector<std::thread> writers;
  std::atomic<int> failed{0};
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back([&, w] {
      TuningCache c = TuningCache::load(path_, nullptr);
      for (int r = 0; r < kRecords; ++r) {
        c.put(entry("gpu" + std::to_string(w), "size" + std::to_string(r), w * 10 + r));
        if (!c.save().ok()) ++failed;
      }
    });
  for (std::thread& t : writers) t.join();
  EXPECT_EQ(failed.load(), 0);
  std::string warning;
  TuningCache back = TuningCache::load(path_, &warning);
  EXPECT_EQ(warning, "");
  EXPECT_EQ(back.entries().size(), size_t(kWriters * kRecords));
  for (int w = 0; w < kWriters; ++w)
    for (int r = 0; r < kRecords; ++r) {
      const CacheEntry* e =
          back.find({"Mesa", "gpu" + std::to_string(w), "OpenGL ES 3.2 Mesa 22.3.6"},
                    "size" + std::to_string(r), "histogram");
      ASSERT_NE(e, nullptr) << w << " " << r;
      EXPECT_EQ(e->params["workgroups"], w * 10 + r);
    }
}

}  // namespace
}  // namespace esf
