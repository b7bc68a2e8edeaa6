// A Bayer frame's raw site histograms on the GPU (RawHistograms) from the R16UI texture the
// demosaic uploads, against the CPU reference (rawSiteHistograms) and against counts known by
// construction: bit depths 8, 10, 12, 16, black and white levels inside the range and at its
// edges, 1, 7, 64 and 256 bins, every CFA order, even, odd-multiple and wider-than-a-workgroup
// sizes, seeded noise and flat frames, a poisoned output buffer before every run.
#include <gtest/gtest.h>

#include <optional>
#include <utility>
#include <vector>

#include "core/stages/demosaic.hpp"
#include "core/stages/raw_histograms.hpp"
#include "core/stats/raw_histogram.hpp"
#include "tests/support/gl_test_context.hpp"
#include "tests/support/random_raw.hpp"

// A namespace of its own: the stage suites are compiled as one unity source.
namespace esf::raw_histograms_test {
namespace {

constexpr int kDepths[] = {8, 10, 12, 16};
constexpr int kBins[] = {1, 7, 64, 256};

RawHistograms makeStage(int bins) {
  GlContext& gl = test::glContext();
  Result<RawHistograms> made =
      RawHistograms::create(gl, RawHistogramsParams::defaultsFor(gl), bins);
  EXPECT_TRUE(made.ok()) << made.error().message;
  return std::move(made.value());
}

// The levels of a `depth`-bit sensor: the default (white 0: the top), the whole range, inside it,
// and each edge's narrowest span.
std::vector<RawLevels> levelsFor(int depth) {
  const uint32_t top = (1u << depth) - 1;
  return {{0, 0}, {0, top}, {top / 16, top - top / 8}, {0, 1}, {top - 1, top}, {1, top - 1}};
}

// The sizes: the smallest, even and odd multiples of the 2x2 block, rows longer than 128 pairs,
// and one wider than a workgroup's pairs along a row (three strides and a pixel).
std::vector<std::pair<int, int>> sizesFor(const RawHistograms& stage) {
  const int wide = stage.params().group.x * 2 * 3 + 1;
  return {{2, 2}, {4, 2}, {6, 4}, {258, 4}, {34, 18}, {64, 48}, {wide, 5}};
}

// The GPU's histograms of `raw`: uploaded as the pipeline uploads it, counted into a poisoned
// buffer.
Result<RawSiteHistograms> countOnGpu(Demosaic& upload, RawHistograms& stage,
                                     const std::vector<uint16_t>& raw, int w, int h,
                                     const RawHistogramsSetup& setup) {
  if (Status s = upload.upload(raw, w, h); !s) return s.error();
  if (Status s = stage.poison(test::kPoison); !s) return s.error();
  if (Status s = stage.run(upload.rawTexture(), w, h, setup); !s) return s.error();
  return stage.read();
}

// The reference's histograms of `raw`, the GPU's equal to them; returns the reference's.
RawSiteHistograms check(Demosaic& upload, RawHistograms& stage, const std::vector<uint16_t>& raw,
                        int w, int h, const RawHistogramsSetup& setup) {
  Result<RawSiteHistograms> want =
      rawSiteHistograms(raw, w, h, setup.order, setup.bit_depth, setup.levels, setup.bins);
  EXPECT_TRUE(want.ok()) << want.error().message;
  if (!want) return {};
  Result<RawSiteHistograms> got = countOnGpu(upload, stage, raw, w, h, setup);
  EXPECT_TRUE(got.ok()) << got.error().message;
  if (!got) return want.value();
  EXPECT_EQ(got->bins, want->bins);
  EXPECT_EQ(got->bit_depth, want->bit_depth);
  EXPECT_EQ(got->black, want->black);
  EXPECT_EQ(got->white, want->white);
  for (size_t site = 0; site < 4; ++site) {
    SCOPED_TRACE(testing::Message() << "site " << site);
    EXPECT_EQ(got->counts[site], want->counts[site]);
    EXPECT_EQ(got->pixels[site], want->pixels[site]);
    EXPECT_EQ(got->crushed[site], want->crushed[site]);
    EXPECT_EQ(got->clipped[site], want->clipped[site]);
  }
  return want.value();
}

// Seeded noise with the levels' own values and their neighbours placed among it (at 16 bits a
// random value rarely lands on them).
std::vector<uint16_t> noiseWithLevels(int w, int h, int depth, RawLevels levels, uint32_t seed) {
  std::vector<uint16_t> raw = test::randomRaw(w, h, depth, seed);
  const uint32_t top = (1u << depth) - 1;
  const uint32_t white = levels.white ? levels.white : top;
  const uint32_t special[] = {0, top, levels.black, white, levels.black + 1, white - 1};
  for (size_t i = 0; i < raw.size(); i += 3) raw[i] = uint16_t(special[(i / 3) % 6]);
  return raw;
}

TEST(RawHistograms, MatchTheReference) {
  Result<Demosaic> upload = Demosaic::create(test::glContext());
  ASSERT_TRUE(upload.ok()) << upload.error().message;
  uint32_t seed = 50;
  for (int bins : kBins) {
    RawHistograms stage = makeStage(bins);
    for (int depth : kDepths)
      for (RawLevels levels : levelsFor(depth))
        for (CfaOrder order : test::kCfaOrders)
          for (auto [w, h] : sizesFor(stage)) {
            SCOPED_TRACE(testing::Message() << bins << " bins, " << depth << " bits, black "
                                            << levels.black << " white " << levels.white
                                            << ", order " << int(order) << ", " << w << "x" << h);
            const RawHistogramsSetup setup{order, depth, levels, bins};
            check(*upload, stage, noiseWithLevels(w, h, depth, levels, ++seed), w, h, setup);
          }
  }
}

// Flat frames at the black level, the white level and between: every site's pixels in the one
// bin s * bins / span, all crushed, all clipped or neither.
TEST(RawHistograms, FlatFramesFillOneBin) {
  Result<Demosaic> upload = Demosaic::create(test::glContext());
  ASSERT_TRUE(upload.ok()) << upload.error().message;
  for (int bins : kBins) {
    RawHistograms stage = makeStage(bins);
    for (int depth : kDepths) {
      const uint32_t top = (1u << depth) - 1;
      const RawLevels levels{top / 16, top - top / 8};
      const uint32_t span = levels.white - levels.black + 1;
      for (uint32_t v : {0u, levels.black, (levels.black + levels.white) / 2, levels.white, top}) {
        for (auto [w, h] : sizesFor(stage)) {
          SCOPED_TRACE(testing::Message() << bins << " bins, " << depth << " bits, flat " << v
                                          << ", " << w << "x" << h);
          const std::vector<uint16_t> raw(size_t(w) * size_t(h), uint16_t(v));
          const RawSiteHistograms want =
              check(*upload, stage, raw, w, h, {CfaOrder::kGBRG, depth, levels, bins});
          const uint32_t s = std::min(std::max(v, levels.black), levels.white) - levels.black;
          const size_t bin = size_t(uint64_t(s) * uint64_t(bins) / span);
          uint64_t pixels = 0;
          for (size_t site = 0; site < 4; ++site) {
            ASSERT_EQ(want.counts[site].size(), size_t(bins));
            EXPECT_EQ(want.counts[site][bin], want.pixels[site]);
            EXPECT_EQ(want.crushed[site], v <= levels.black ? want.pixels[site] : 0u);
            EXPECT_EQ(want.clipped[site], v >= levels.white ? want.pixels[site] : 0u);
            pixels += want.pixels[site];
          }
          EXPECT_EQ(pixels, uint64_t(w) * uint64_t(h));
        }
      }
    }
  }
}

// A 1080p 12-bit frame: many workgroups adding into each global word.
TEST(RawHistograms, LargeFrame) {
  Result<Demosaic> upload = Demosaic::create(test::glContext());
  ASSERT_TRUE(upload.ok()) << upload.error().message;
  RawHistograms stage = makeStage(256);
  const RawLevels levels{64, 4000};
  check(*upload, stage, noiseWithLevels(1920, 1080, 12, levels, 7), 1920, 1080,
        {CfaOrder::kBGGR, 12, levels, 256});
}

TEST(RawHistograms, RefusesWhatItCannotCount) {
  GlContext& gl = test::glContext();
  const RawHistogramsParams p = RawHistogramsParams::defaultsFor(gl);
  for (int bins : {0, 257}) {
    Result<RawHistograms> made = RawHistograms::create(gl, p, bins);
    ASSERT_FALSE(made.ok());
    EXPECT_NE(made.error().message.find("raw histograms"), std::string::npos);
  }
  RawHistogramsParams wide = p;
  wide.group.x = gl.limits().work_group_size[0] + 1;
  EXPECT_FALSE(RawHistograms::create(gl, wide, 64).ok());
  RawHistograms stage = makeStage(64);
  EXPECT_FALSE(stage.read().ok());  // before a run
  Result<Demosaic> upload = Demosaic::create(gl);
  ASSERT_TRUE(upload.ok()) << upload.error().message;
  ASSERT_TRUE(upload->upload(std::vector<uint16_t>(16, 5), 4, 4).ok());
  const GLuint raw = upload->rawTexture();
  EXPECT_FALSE(stage.run(raw, 4, 4, {CfaOrder::kRGGB, 10, {0, 0}, 256}).ok());     // other bins
  EXPECT_FALSE(stage.run(raw, 4, 4, {CfaOrder::kRGGB, 10, {600, 500}, 64}).ok());  // white<black
  EXPECT_FALSE(stage.run(raw, 4, 4, {CfaOrder::kRGGB, 10, {0, 1024}, 64}).ok());   // past 10 bits
  EXPECT_FALSE(stage.run(0, 4, 4, {CfaOrder::kRGGB, 10, {0, 0}, 64}).ok());        // no texture
  EXPECT_FALSE(stage.read().ok());  // each refused run left no counts
  ASSERT_TRUE(stage.run(raw, 4, 4, {CfaOrder::kRGGB, 10, {0, 0}, 64}).ok());
  EXPECT_FALSE(stage.histogramsOf(std::vector<uint32_t>(8, 0)).ok());  // not its words
}

}  // namespace
}  // namespace esf::raw_histograms_test
