// Bayer frames' raw statistics in every output that names them: JSONL fields, CSV columns and the
// graph's caption, from a hand-built result whose fractions are worked out here; frames without
// raw statistics carry none of them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/outputs/csv_output.hpp"
#include "core/outputs/graph_layout.hpp"
#include "core/outputs/jsonl_output.hpp"
#include "tests/core/outputs/csv_test_util.hpp"

namespace esf {
namespace {

// 4 bins; R: 10 of 100 clipped, Gr none, Gb 50 of 100, B all 40; crushed: R 1, others 0.
FrameResult bayerResult() {
  FrameResult f;
  f.format = "SRGGB10";
  f.width = 20, f.height = 20;
  f.hist = HistogramData{4, "l", {100, 100, 100, 100}};
  f.stats.push_back(ChannelStats{'l', 400});
  RawHistogramData raw;
  raw.bins = 4, raw.bit_depth = 10, raw.black = 64, raw.white = 1000;
  raw.counts = {std::vector<uint32_t>{1, 2, 87, 10}, std::vector<uint32_t>{25, 25, 25, 25},
                std::vector<uint32_t>{0, 0, 50, 50}, std::vector<uint32_t>{0, 0, 0, 40}};
  raw.pixels = {100, 100, 100, 40};
  raw.clipped = {10, 0, 50, 40};
  raw.crushed = {1, 0, 0, 0};
  f.raw = raw;
  return f;
}

TEST(RawOutputs, JsonlFields) {
  const nlohmann::json j = nlohmann::json::parse(jsonlLine(bayerResult()));
  EXPECT_EQ(j["raw_bits"], 10);
  EXPECT_EQ(j["raw_black"], 64);
  EXPECT_EQ(j["raw_white"], 1000);
  EXPECT_EQ(j["raw_r"], (std::vector<uint32_t>{1, 2, 87, 10}));
  EXPECT_EQ(j["raw_gb"], (std::vector<uint32_t>{0, 0, 50, 50}));
  EXPECT_DOUBLE_EQ(j["raw_clipped"]["r"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(j["raw_clipped"]["gr"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(j["raw_clipped"]["gb"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(j["raw_clipped"]["b"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["raw_crushed"]["r"].get<double>(), 0.01);
  FrameResult plain = bayerResult();
  plain.raw.reset();
  const nlohmann::json p = nlohmann::json::parse(jsonlLine(plain));
  for (const char* key : {"raw_bits", "raw_r", "raw_clipped", "raw_crushed"})
    EXPECT_FALSE(p.contains(key)) << key;
}

TEST(RawOutputs, CsvColumnsLineUpWithTheirValues) {
  const FrameResult f = bayerResult();
  const std::vector<std::string> header = test::splitCsv(csvHeader(f, true)),
                                 row = test::splitCsv(csvRow(f, true));
  ASSERT_EQ(header.size(), row.size());
  auto at = [&](const std::string& name) { return test::csvColumn(header, row, name); };
  EXPECT_EQ(at("raw_bits"), "10");
  EXPECT_EQ(at("raw_white"), "1000");
  EXPECT_DOUBLE_EQ(std::stod(at("raw_clipped_gb")), 0.5);
  EXPECT_DOUBLE_EQ(std::stod(at("raw_crushed_r")), 0.01);
  EXPECT_EQ(at("raw_r_bin2"), "87");
  EXPECT_EQ(at("raw_b_bin3"), "40");
  FrameResult plain = f;
  plain.raw.reset();
  EXPECT_EQ(csvHeader(plain, true).find("raw_"), std::string::npos);
}

TEST(RawOutputs, GraphCaptionNamesEachSitesClipping) {
  const FrameResult f = bayerResult();
  const GraphLabels with = graphLabels(f.hist, f.stats, &*f.raw);
  const GraphLabels without = graphLabels(f.hist, f.stats);
  const size_t clip = without.caption.find(" CLIP ");
  ASSERT_NE(clip, std::string::npos) << without.caption;
  EXPECT_EQ(with.caption, without.caption.substr(0, clip) + " RAW CLIP 10.0/0.0/50.0/100.0%");
}

}  // namespace
}  // namespace esf
