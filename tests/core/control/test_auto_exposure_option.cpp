// --auto-exposure's KEY=VALUE parser: defaults per metric, ranges, one-line errors.
#include <gtest/gtest.h>

#include "apps/esframe/auto_exposure_option.hpp"

namespace esf::cli {
namespace {

TEST(AutoExposureOption, DefaultsAndKeys) {
  Result<AutoExposureOptions> d = parseAutoExposureOption("");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->metric, ExposureMetric::kMsv);
  EXPECT_DOUBLE_EQ(d->target, 2.5);
  EXPECT_DOUBLE_EQ(d->band, 0.1);
  Result<AutoExposureOptions> m = parseAutoExposureOption("metric=mean,control=brightness");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->metric, ExposureMetric::kMean);
  EXPECT_DOUBLE_EQ(m->target, 118);
  EXPECT_DOUBLE_EQ(m->band, 8);
  EXPECT_EQ(m->control, "brightness");
  Result<AutoExposureOptions> all =
      parseAutoExposureOption("target=3,band=0.2,damping=0.25,settle=5");
  ASSERT_TRUE(all);
  EXPECT_DOUBLE_EQ(all->target, 3);
  EXPECT_DOUBLE_EQ(all->band, 0.2);
  EXPECT_DOUBLE_EQ(all->damping, 0.25);
  EXPECT_EQ(all->settle, 5);
}

TEST(AutoExposureOption, BadValuesNameTheKey) {
  for (auto [text, names] :
       {std::pair{"metric=median", "metric=median"}, std::pair{"target=6", "target"},
        std::pair{"damping=0", "damping=0"}, std::pair{"band=-1", "band=-1"},
        std::pair{"target=abc", "target=abc"}, std::pair{"settle=x", "settle"},
        std::pair{"colour=1", "colour"}, std::pair{"control=", "control"}}) {
    Result<AutoExposureOptions> r = parseAutoExposureOption(text);
    ASSERT_FALSE(r) << text;
    EXPECT_NE(r.error().message.find(names), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("--auto-exposure"), std::string::npos);
  }
}

}  // namespace
}  // namespace esf::cli
