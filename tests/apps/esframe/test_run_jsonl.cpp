// `esframe run` JSONL: every field checked with nlohmann-json, the stats recomputed here from
// the printed histogram (independent_stats.hpp), and the gles and cpu backends equal.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/core/outputs/independent_stats.hpp"
#include "tests/support/run_command.hpp"

namespace esf {
namespace {

using nlohmann::json;
using test::runEsframe;

std::vector<json> parseLines(const std::string& out) {
  std::vector<json> lines;
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    EXPECT_NE(end, std::string::npos) << "last line not terminated";
    if (end == std::string::npos) break;
    lines.push_back(json::parse(out.substr(start, end - start)));
    start = end + 1;
  }
  return lines;
}

std::vector<json> run(std::vector<std::string> args) {
  test::CommandResult r = runEsframe(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return parseLines(r.out);
}

void checkFrame(const json& j, int width, int height, int bins, const std::string& channels) {
  for (const char* key :
       {"seq", "ts_ns", "source", "width", "height", "format", "dropped", "bins", "hist", "stats",
        "YMIN", "YLOW", "YAVG", "YHIGH", "YMAX", "ev_hint", "timing_ms", "timing_clock"})
    ASSERT_TRUE(j.contains(key)) << key;
  EXPECT_TRUE(j["seq"].is_number_unsigned());
  EXPECT_TRUE(j["ts_ns"].is_number_unsigned());
  EXPECT_EQ(j["source"], "pattern");
  EXPECT_EQ(j["width"], width);
  EXPECT_EQ(j["height"], height);
  EXPECT_TRUE(j["format"].is_string());
  EXPECT_EQ(j["dropped"], 0);
  EXPECT_EQ(j["bins"], bins);
  const uint64_t pixels = uint64_t(width) * uint64_t(height);
  ASSERT_EQ(j["hist"].size(), channels.size());
  for (char c : channels) {
    const std::string name(1, c);
    const json& h = j["hist"][name];
    ASSERT_EQ(h.size(), size_t(bins)) << name;
    uint64_t total = 0;
    for (const json& n : h) total += n.get<uint64_t>();
    EXPECT_EQ(total, pixels) << name;
    const json& s = j["stats"][name];
    for (const char* key : {"min", "max", "mean", "p1", "p10", "p50", "p90", "p99", "clip_low",
                            "clip_high", "msv", "pixels"})
      ASSERT_TRUE(s.contains(key)) << name << "." << key;
    EXPECT_EQ(s["pixels"], pixels);
    EXPECT_EQ(s["clip_low"].get<double>(), double(h[0].get<uint64_t>()) / double(pixels));
    EXPECT_EQ(s["clip_high"].get<double>(), double(h[bins - 1].get<uint64_t>()) / double(pixels));
    if (bins == 256) {  // the histogram is the value histogram: every stat follows from it
      std::vector<uint64_t> counts;
      for (const json& n : h) counts.push_back(n.get<uint64_t>());
      const test::IndependentStats want = test::independentStats(counts);
      EXPECT_EQ(s["min"], want.min) << name;
      EXPECT_EQ(s["max"], want.max) << name;
      EXPECT_EQ(s["mean"].get<double>(), want.mean) << name;
      EXPECT_EQ(s["p1"], want.p1) << name;
      EXPECT_EQ(s["p10"], want.p10) << name;
      EXPECT_EQ(s["p50"], want.p50) << name;
      EXPECT_EQ(s["p90"], want.p90) << name;
      EXPECT_EQ(s["p99"], want.p99) << name;
      EXPECT_EQ(s["msv"].get<double>(), want.msv) << name;
    } else {  // each value stat lies in the bin the histogram puts it in
      for (const char* key : {"min", "max", "p1", "p10", "p50", "p90", "p99"}) {
        const int bin = (s[key].get<int>() * bins) >> 8;
        EXPECT_GT(h[bin].get<uint64_t>(), 0u) << name << "." << key;
      }
    }
  }
  if (channels.find('l') != std::string::npos) {
    const json& l = j["stats"]["l"];
    EXPECT_EQ(j["YMIN"].get<double>(), l["min"].get<double>());
    EXPECT_EQ(j["YLOW"].get<double>(), l["p10"].get<double>());
    EXPECT_EQ(j["YAVG"].get<double>(), l["mean"].get<double>());
    EXPECT_EQ(j["YHIGH"].get<double>(), l["p90"].get<double>());
    EXPECT_EQ(j["YMAX"].get<double>(), l["max"].get<double>());
    const double ev = std::clamp(std::log2(2.5 / l["msv"].get<double>()), -4.0, 4.0);
    EXPECT_EQ(j["ev_hint"].get<double>(), ev);
  } else {
    EXPECT_TRUE(j["YAVG"].is_null());
    EXPECT_TRUE(j["ev_hint"].is_null());
  }
  for (const auto& [stage, ms] : j["timing_ms"].items()) {
    EXPECT_GE(ms.get<double>(), 0.0) << stage;
    EXPECT_TRUE(j["timing_clock"][stage] == "gpu" || j["timing_clock"][stage] == "wall");
  }
  EXPECT_TRUE(j["timing_ms"].contains("histogram"));
}

// `common` on the GLES backend (with `gles_extra` after it), the reference and the CPU one: each
// must print `frames` lines, into g, r and c.
void runOnEveryBackend(const std::vector<std::string>& common,
                       const std::vector<std::string>& gles_extra, size_t frames,
                       std::vector<json>& g, std::vector<json>& r, std::vector<json>& c) {
  std::vector<std::string> gles = common, ref = common, cpu = common;
  gles.insert(gles.end(), {"--backend", "gles"});
  gles.insert(gles.end(), gles_extra.begin(), gles_extra.end());
  ref.insert(ref.end(), {"--backend", "reference"});
  cpu.insert(cpu.end(), {"--backend", "cpu"});
  g = run(gles), r = run(ref), c = run(cpu);
  ASSERT_EQ(g.size(), frames);
  ASSERT_EQ(r.size(), frames);
  ASSERT_EQ(c.size(), frames);
}

TEST(RunJsonl, EveryFieldAndStatsFromTheHistogram) {
  for (const char* backend : {"gles", "cpu", "reference"}) {
    SCOPED_TRACE(backend);
    std::vector<json> lines =
        run({"run", "--frames", "3", "--size", "67x45", "--backend", backend});
    ASSERT_EQ(lines.size(), 3u);
    for (size_t i = 0; i < lines.size(); ++i) {
      checkFrame(lines[i], 67, 45, 256, "rgbl");
      EXPECT_EQ(lines[i]["seq"], i);
    }
    EXPECT_LT(lines[0]["ts_ns"].get<uint64_t>(), lines[1]["ts_ns"].get<uint64_t>());
  }
}

TEST(RunJsonl, FewerBinsAndChannelSubsets) {
  std::vector<json> lines = run({"run", "--frames", "2", "--size", "33x17", "--histogram",
                                 "bins=7,channels=gl,strategy=chunk-sum"});
  ASSERT_EQ(lines.size(), 2u);
  for (const json& j : lines) checkFrame(j, 33, 17, 7, "gl");
  lines = run({"run", "--frames", "1", "--size", "33x17", "--histogram", "bins=16,channels=br"});
  ASSERT_EQ(lines.size(), 1u);
  checkFrame(lines[0], 33, 17, 16, "br");
}

// Everything but timings must be equal: the cpu backend is the GPU stages' CPU reference.
void expectSameExceptTiming(json a, json b) {
  for (json* j : {&a, &b}) {
    j->erase("timing_ms");
    j->erase("timing_clock");
  }
  EXPECT_EQ(a, b);
}

TEST(RunJsonl, GlesEqualsCpuBackendThroughBlurAndResize) {
  const std::vector<std::string> common = {"run",    "--frames", "2",        "--size", "96x70",
                                           "--blur", "5:2",      "--resize", "41x29"};
  for (const char* strategy :
       {"auto", "single", "global-atomic", "chunk-sum", "chunk-reduce", "persistent"}) {
    SCOPED_TRACE(strategy);
    std::vector<json> g, r, c;
    ASSERT_NO_FATAL_FAILURE(runOnEveryBackend(
        common, {"--histogram", std::string("bins=256,strategy=") + strategy}, 2, g, r, c));
    for (size_t i = 0; i < g.size(); ++i) {
      checkFrame(g[i], 41, 29, 256, "rgbl");
      expectSameExceptTiming(g[i], r[i]);
      expectSameExceptTiming(c[i], r[i]);
    }
    EXPECT_TRUE(g[0]["timing_ms"].contains("blur"));
    EXPECT_TRUE(g[0]["timing_ms"].contains("resize"));
  }
}

TEST(RunJsonl, SourceLumaFromYPlaneEqualsCpu) {
  const std::vector<std::string> common = {"run",      "--frames", "1",      "--size", "64x32",
                                           "--format", "NV12",     "--luma", "source"};
  std::vector<json> g, r, c;
  ASSERT_NO_FATAL_FAILURE(runOnEveryBackend(common, {}, 1, g, r, c));
  checkFrame(g[0], 64, 32, 256, "rgbl");
  EXPECT_EQ(g[0]["format"], "NV12");
  expectSameExceptTiming(g[0], r[0]);
  expectSameExceptTiming(c[0], r[0]);
}

}  // namespace
}  // namespace esf
