// The stdout record formats of one hand-made frame: JSONL parsed back with nlohmann-json, the
// binary record decoded by the layout documented in bin_output.hpp, CSV header against row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "core/outputs/bin_output.hpp"
#include "core/outputs/csv_output.hpp"
#include "core/outputs/jsonl_output.hpp"
#include "tests/core/outputs/csv_test_util.hpp"

namespace esf {
namespace {

FrameResult sampleFrame(const std::string& channels) {
  FrameResult f;
  f.seq = 41;
  f.ts_ns = 1234567890123ull;
  f.dropped = 2;
  f.source = "clip, \"one\".y4m";
  f.format = "NV12";
  f.width = 7;
  f.height = 3;
  f.hist.bins = 4;
  f.hist.channels = channels;
  for (size_t i = 0; i < 4 * channels.size(); ++i) f.hist.counts.push_back(uint32_t(i * 3 + 1));
  for (char c : channels) {
    ChannelStats s;
    s.channel = c;
    s.count = 21;
    s.min = uint32_t(c);
    s.max = 250;
    s.sum = 2000;
    s.mean = 2000.0 / 21;
    s.p1 = 1, s.p10 = 10, s.p50 = 50, s.p90 = 90, s.p99 = 99;
    s.clip_low = 0.25, s.clip_high = 0.125, s.msv = c == 'l' ? 1.25 : 3.0;
    f.stats.push_back(s);
  }
  f.timings = {{"import", 0.5, true}, {"histogram", 1.25, false}};
  return f;
}

TEST(Jsonl, OneLineWithEveryField) {
  const std::string line = jsonlLine(sampleFrame("rgbl"));
  ASSERT_EQ(line.back(), '\n');
  ASSERT_EQ(line.find('\n'), line.size() - 1);
  const nlohmann::json j = nlohmann::json::parse(line);
  EXPECT_EQ(j["seq"], 41);
  EXPECT_EQ(j["ts_ns"], 1234567890123ull);
  EXPECT_EQ(j["dropped"], 2);
  EXPECT_EQ(j["source"], "clip, \"one\".y4m");
  EXPECT_EQ(j["format"], "NV12");
  EXPECT_EQ(j["width"], 7);
  EXPECT_EQ(j["height"], 3);
  EXPECT_EQ(j["hist"]["g"], nlohmann::json({4, 16, 28, 40}));  // counts[bin * 4 + 1] = 3i + 1
  EXPECT_EQ(j["stats"]["l"]["min"], int('l'));
  EXPECT_EQ(j["stats"]["r"]["msv"], 3.0);
  EXPECT_EQ(j["YMIN"], double('l'));
  EXPECT_EQ(j["YLOW"], 10.0);
  EXPECT_EQ(j["YAVG"], 2000.0 / 21);
  EXPECT_EQ(j["YHIGH"], 90.0);
  EXPECT_EQ(j["YMAX"], 250.0);
  EXPECT_EQ(j["ev_hint"], std::log2(2.5 / 1.25));
  EXPECT_EQ(j["timing_ms"]["histogram"], 1.25);
  EXPECT_EQ(j["timing_clock"]["import"], "gpu");
  EXPECT_EQ(j["timing_clock"]["histogram"], "wall");
}

TEST(Jsonl, NoLumaGivesNullSignalstats) {
  const nlohmann::json j = nlohmann::json::parse(jsonlLine(sampleFrame("rg")));
  EXPECT_TRUE(j["YAVG"].is_null());
  EXPECT_TRUE(j["ev_hint"].is_null());
  EXPECT_FALSE(j["hist"].contains("l"));
}

TEST(Jsonl, AutoExposureOnlyWhenTheLoopRuns) {
  FrameResult f = sampleFrame("rgbl");
  EXPECT_FALSE(nlohmann::json::parse(jsonlLine(f)).contains("auto_exposure"));
  f.auto_exposure =
      AutoExposureState{{{"exposure_time_absolute", 333}, {"gain", -2}}, 2.25, 2.5, false};
  const nlohmann::json j = nlohmann::json::parse(jsonlLine(f));
  EXPECT_EQ(j["auto_exposure"]["controls"]["exposure_time_absolute"], 333);
  EXPECT_EQ(j["auto_exposure"]["controls"]["gain"], -2);
  EXPECT_EQ(j["auto_exposure"]["measure"], 2.25);
  EXPECT_EQ(j["auto_exposure"]["target"], 2.5);
  EXPECT_EQ(j["auto_exposure"]["converged"], false);
}

template <typename T>
T le(const std::string& r, size_t at) {
  uint64_t v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(uint8_t(r[at + i])) << (8 * i);
  T out;
  std::memcpy(&out, &v, sizeof(T));
  return out;
}

TEST(BinRecord, DecodesByTheDocumentedLayout) {
  const FrameResult f = sampleFrame("rgbl");
  const std::string r = binRecord(f);
  ASSERT_EQ(r.substr(0, 4), "ESF1");
  const size_t source_len = f.source.size();
  const size_t expected = 64 + source_len + 4 * 4 * 4 + 4 * 80 + 8 + 2 * 24;
  ASSERT_EQ(r.size(), expected);
  EXPECT_EQ(le<uint32_t>(r, 4), expected);
  EXPECT_EQ(le<uint64_t>(r, 8), 41u);
  EXPECT_EQ(le<uint64_t>(r, 16), 1234567890123ull);
  EXPECT_EQ(le<uint64_t>(r, 24), 2u);
  EXPECT_EQ(le<uint32_t>(r, 32), 7u);
  EXPECT_EQ(le<uint32_t>(r, 36), 3u);
  EXPECT_EQ(le<uint16_t>(r, 40), 4u);
  EXPECT_EQ(uint8_t(r[42]), 4u);
  EXPECT_EQ(uint8_t(r[43]), 2u);
  EXPECT_EQ(r.substr(44, 4), "rgbl");
  EXPECT_EQ(std::string(r.c_str() + 48), "NV12");
  EXPECT_EQ(le<uint32_t>(r, 56), source_len);
  EXPECT_EQ(r.substr(64, source_len), f.source);
  size_t at = 64 + source_len;
  for (uint32_t c : f.hist.counts) {
    EXPECT_EQ(le<uint32_t>(r, at), c);
    at += 4;
  }
  // Channel 3 ('l'): pixels, sum, min..p99, pad, mean, clip_low, clip_high, msv.
  at += 3 * 80;
  EXPECT_EQ(le<uint64_t>(r, at), 21u);
  EXPECT_EQ(le<uint64_t>(r, at + 8), 2000u);
  EXPECT_EQ(le<uint32_t>(r, at + 16), uint32_t('l'));
  EXPECT_EQ(le<uint32_t>(r, at + 16 + 6 * 4), 99u);
  EXPECT_EQ(le<double>(r, at + 48), 2000.0 / 21);
  EXPECT_EQ(le<double>(r, at + 72), 1.25);
  at += 80;
  EXPECT_EQ(le<double>(r, at), std::log2(2.5 / 1.25));
  at += 8;
  EXPECT_EQ(std::string(r.c_str() + at), "import");
  EXPECT_EQ(uint8_t(r[at + 15]), 1u);
  EXPECT_EQ(le<double>(r, at + 16), 0.5);
  EXPECT_EQ(uint8_t(r[at + 24 + 15]), 0u);
}

TEST(BinRecord, NoLumaEvHintIsNan) {
  const std::string r = binRecord(sampleFrame("b"));
  const size_t at = 64 + sampleFrame("b").source.size() + 4 * 4 + 80;
  EXPECT_TRUE(std::isnan(le<double>(r, at)));
}

using test::splitCsv;

TEST(Csv, HeaderAndRowAgree) {
  for (bool bins : {false, true}) {
    const FrameResult f = sampleFrame("rgbl");
    const std::vector<std::string> h = splitCsv(csvHeader(f, bins));
    const std::vector<std::string> r = splitCsv(csvRow(f, bins));
    ASSERT_EQ(h.size(), r.size());
    auto col = [&](const std::string& name) { return test::csvColumn(h, r, name); };
    EXPECT_EQ(col("source"), f.source);
    EXPECT_EQ(col("seq"), "41");
    EXPECT_EQ(std::stod(col("l_mean")), 2000.0 / 21);
    EXPECT_EQ(std::stod(col("YHIGH")), 90.0);
    EXPECT_EQ(std::stod(col("timing_histogram_ms")), 1.25);
    EXPECT_EQ(std::stod(col("ev_hint")), std::log2(2.5 / 1.25));
    if (bins) {
      EXPECT_EQ(col("b_bin3"), std::to_string(f.hist.at(3, 2)));
    }
  }
}

// --signalstats: its figures under ffmpeg's names, in JSONL and CSV; none without them.
TEST(Signalstats, JsonlMembersAndCsvColumnsOnlyWithTheFigures) {
  FrameResult f = sampleFrame("rgbl");
  const nlohmann::json off = nlohmann::json::parse(jsonlLine(f));
  EXPECT_FALSE(off.contains("UMIN"));
  EXPECT_EQ(csvHeader(f, false).find("UMIN"), std::string::npos);
  f.signalstats = SignalstatsFigures{12,
                                     {16, 20, 200, 240, 128.5, 0.25},
                                     {17, 21, 201, 239, 127.75, 1.5},
                                     3,
                                     0.125,
                                     2,
                                     4,
                                     90,
                                     100,
                                     50.5,
                                     181,
                                     179.25,
                                     7,
                                     0.0625,
                                     2,
                                     0.5};
  const nlohmann::json j = nlohmann::json::parse(jsonlLine(f));
  const std::vector<std::string> h = splitCsv(csvHeader(f, false));
  const std::vector<std::string> r = splitCsv(csvRow(f, false));
  ASSERT_EQ(h.size(), r.size());
  const std::pair<const char*, double> expected[] = {
      {"UMIN", 16},     {"ULOW", 20},    {"UAVG", 128.5},  {"UHIGH", 200},  {"UMAX", 240},
      {"VMIN", 17},     {"VLOW", 21},    {"VAVG", 127.75}, {"VHIGH", 201},  {"VMAX", 239},
      {"UDIF", 0.25},   {"VDIF", 1.5},   {"BRNG", 0.125},  {"SATMIN", 2},   {"SATLOW", 4},
      {"SATAVG", 50.5}, {"SATHIGH", 90}, {"SATMAX", 100},  {"HUEMED", 181}, {"HUEAVG", 179.25}};
  for (const auto& [name, value] : expected) {
    EXPECT_EQ(j[name], value) << name;
    EXPECT_EQ(std::stod(test::csvColumn(h, r, name)), value) << name;
  }
  // TOUT and VREP: only when counted, last.
  EXPECT_EQ(j["TOUT"], 0.0625);
  EXPECT_EQ(j["VREP"], 0.5);
  EXPECT_EQ(std::stod(test::csvColumn(h, r, "TOUT")), 0.0625);
  EXPECT_EQ(std::stod(test::csvColumn(h, r, "VREP")), 0.5);
  const auto hue = std::find(h.begin(), h.end(), "HUEAVG");
  ASSERT_TRUE(hue + 2 < h.end());
  EXPECT_EQ(hue[1], "TOUT");
  EXPECT_EQ(hue[2], "VREP");
  f.signalstats->tout.reset();
  f.signalstats->vrep.reset();
  const nlohmann::json without = nlohmann::json::parse(jsonlLine(f));
  EXPECT_FALSE(without.contains("TOUT") || without.contains("VREP"));
  EXPECT_EQ(csvHeader(f, false).find("TOUT"), std::string::npos);
  EXPECT_EQ(csvHeader(f, false).find("VREP"), std::string::npos);
}

// --detect: cropdetect_* columns when the run asks for cropdetect (empty on its skipped frames)
// or the first frame has its figures; blur and block (empty for ffmpeg's nan).
TEST(Csv, DetectorColumns) {
  FrameResult f = sampleFrame("rgbl");
  EXPECT_EQ(csvHeader(f, false).find("cropdetect"), std::string::npos);
  EXPECT_EQ(csvHeader(f, false).find("blur"), std::string::npos);
  f.blur = 4.25f;
  f.block = std::numeric_limits<float>::quiet_NaN();
  const CsvColumns asked{false, true};  // cropdetect asked, skipping this frame
  std::vector<std::string> h = splitCsv(csvHeader(f, csvColumnsOf(f, asked)));
  std::vector<std::string> r = splitCsv(csvRow(f, csvColumnsOf(f, asked)));
  ASSERT_EQ(h.size(), r.size());
  const char* keys[] = {"x1", "x2", "y1", "y2", "w", "h", "x", "y"};
  for (const char* key : keys)
    EXPECT_EQ(test::csvColumn(h, r, std::string("cropdetect_") + key), "");
  EXPECT_EQ(test::csvColumn(h, r, "blur"), "4.25");
  EXPECT_EQ(test::csvColumn(h, r, "block"), "");
  f.cropdetect = CropDetectFigures{14, 78, 8, 46, 64, 32, 14, 12};
  f.block = 1.5f;
  // Not asked, but the first frame has them.
  h = splitCsv(csvHeader(f, false));
  r = splitCsv(csvRow(f, false));
  ASSERT_EQ(h.size(), r.size());
  const char* values[] = {"14", "78", "8", "46", "64", "32", "14", "12"};
  for (size_t i = 0; i < 8; ++i)
    EXPECT_EQ(test::csvColumn(h, r, std::string("cropdetect_") + keys[i]), values[i]) << keys[i];
  EXPECT_EQ(test::csvColumn(h, r, "block"), "1.5");
}

TEST(JsonlLine, DetectorFiguresAsDocumentedAndNanAsNull) {
  FrameResult f;
  EXPECT_FALSE(nlohmann::json::parse(jsonlLine(f)).contains("cropdetect"));
  f.cropdetect = CropDetectFigures{14, 78, 8, 46, 64, 32, 14, 12};
  f.blur = 4.25f;
  f.block = std::numeric_limits<float>::quiet_NaN();
  const nlohmann::json j = nlohmann::json::parse(jsonlLine(f));
  EXPECT_EQ(j["cropdetect"],
            nlohmann::json::parse(R"({"x1":14,"x2":78,"y1":8,"y2":46,"w":64,"h":32,"x":14,"y":12,)"
                                  R"("crop":"64:32:14:12"})"));
  EXPECT_EQ(j["blur"], 4.25);
  EXPECT_TRUE(j.contains("block") && j["block"].is_null());
}

}  // namespace
}  // namespace esf
