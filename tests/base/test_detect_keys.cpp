// base/detect_keys (parseDetectConfig) and PipelineConfig::validate's detector ranges: every
// expectation is written out by hand from ffmpeg 5.1's option tables (vf_cropdetect.c,
// vf_blurdetect.c, vf_blockdetect.c), never computed by the parser itself.
#include <gtest/gtest.h>

#include "esframe/detectors.hpp"
#include "esframe/pipeline_config.hpp"

namespace esf {
namespace {

TEST(ParseDetectConfig, EmptyRunsNoneAndNamesAloneTakeFfmpegsDefaults) {
  EXPECT_FALSE(parseDetectConfig("").value().any());
  const DetectConfig d = parseDetectConfig("crop,blur,block").value();
  ASSERT_TRUE(d.crop && d.blur && d.block);
  EXPECT_EQ(d.crop->limit, 24.0f / 255);
  EXPECT_EQ(d.crop->round, 16);
  EXPECT_EQ(d.crop->reset, 0);
  EXPECT_EQ(d.crop->skip, 2);
  EXPECT_EQ(d.crop->max_outliers, 0);
  EXPECT_EQ(d.blur->high, 30.0f / 255);
  EXPECT_EQ(d.blur->low, 15.0f / 255);
  EXPECT_EQ(d.blur->radius, 50);
  EXPECT_EQ(d.blur->block_pct, 80);
  EXPECT_EQ(d.blur->block_width, -1);
  EXPECT_EQ(d.blur->block_height, -1);
  EXPECT_EQ(d.blur->planes, 1);
  EXPECT_EQ(d.block->period_min, 3);
  EXPECT_EQ(d.block->period_max, 24);
  EXPECT_EQ(d.block->planes, 1);
  const DetectConfig only_blur = parseDetectConfig("blur").value();
  EXPECT_TRUE(only_blur.blur && !only_blur.crop && !only_blur.block);
}

TEST(ParseDetectConfig, KeysFollowTheirDetector) {
  const DetectConfig d =
      parseDetectConfig(
          "block,planes=7,crop,limit=0.1,round=4,reset_count=5,skip=0,max_outliers=3,blur,high=1,"
          "low=0,radius=100,block_pct=1,block_width=32,block_height=-1")
          .value();
  EXPECT_EQ(d.block->planes, 7);
  EXPECT_EQ(d.block->period_max, 24);
  EXPECT_EQ(d.crop->limit, 0.1f);  // stored as ffmpeg's float
  EXPECT_EQ(d.crop->round, 4);
  EXPECT_EQ(d.crop->reset, 5);
  EXPECT_EQ(d.crop->skip, 0);
  EXPECT_EQ(d.crop->max_outliers, 3);
  EXPECT_EQ(d.blur->high, 1.0f);
  EXPECT_EQ(d.blur->low, 0.0f);
  EXPECT_EQ(d.blur->radius, 100);
  EXPECT_EQ(d.blur->block_pct, 1);
  EXPECT_EQ(d.blur->block_width, 32);
  EXPECT_EQ(d.blur->block_height, -1);
  EXPECT_EQ(d.blur->planes, 1);
}

TEST(ParseDetectConfig, BadTextIsOneLineNamingTheKeyOrWord) {
  for (const auto& [text, named] :
       std::vector<std::pair<const char*, const char*>>{{"crop,limit=65536", "limit"},
                                                        {"crop,limit=-0.5", "limit"},
                                                        {"crop,limit=nan", "limit"},
                                                        {"crop,skip=1.5", "skip"},
                                                        {"crop,round=", "round"},
                                                        {"blur,high=1.01", "high"},
                                                        {"blur,radius=101", "radius"},
                                                        {"blur,block_pct=0", "block_pct"},
                                                        {"blur,block_width=-2", "block_width"},
                                                        {"block,period_min=1", "period_min"},
                                                        {"block,period_min=33", "period_min"},
                                                        {"block,planes=16", "planes"},
                                                        {"block,limit=3", "limit"},
                                                        {"radius=3", "radius"},
                                                        {"sharp", "sharp"},
                                                        {"blur,,block", "''"},
                                                        {"block,block", "block"}}) {
    Result<DetectConfig> r = parseDetectConfig(text, "detect");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument) << text;
    EXPECT_NE(r.error().message.find(named), std::string::npos)
        << text << ": " << r.error().message;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << text;
    EXPECT_EQ(r.error().message.find("--"), std::string::npos) << text;
  }
}

TEST(PipelineConfigValidate, DetectorsTakeFfmpegsRanges) {
  PipelineConfig c;
  c.detect.block = BlockDetectConfig{};
  EXPECT_TRUE(c.validate().ok());
  c.detect.block->period_max = 65;
  EXPECT_NE(c.validate().error().message.find("period_max"), std::string::npos);
  c.detect.block->period_max = 64;
  c.detect.blur = BlurDetectConfig{};
  c.detect.blur->low = 1.5f;
  EXPECT_NE(c.validate().error().message.find("blur low"), std::string::npos);
  c.detect.blur->low = 1.0f;
  c.detect.crop = CropDetectConfig{};
  c.detect.crop->skip = -1;
  EXPECT_NE(c.validate().error().message.find("crop skip"), std::string::npos);
  c.detect.crop->skip = 0;
  EXPECT_TRUE(c.validate().ok());
}

}  // namespace
}  // namespace esf
