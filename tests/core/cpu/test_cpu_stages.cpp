// The executor's histogram, reduce, blur and resize against the plain references, bit for bit:
// seeded random, flat and gradient images of odd sizes (1x1, 257x3, ...), every channel string
// shape, several bin counts, both luma weights, poisoned outputs, several thread counts.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "core/cpu/cpu_blur.hpp"
#include "core/cpu/cpu_histogram.hpp"
#include "core/cpu/cpu_reduce.hpp"
#include "core/cpu/cpu_resize.hpp"
#include "core/cpu/simd_kernels.hpp"
#include "core/stages/blur_reference.hpp"
#include "core/stages/histogram_reference.hpp"
#include "core/stages/reduce_reference.hpp"
#include "core/stages/resize_reference.hpp"
#include "tests/core/cpu/cpu_test_util.hpp"
#include "tests/core/stages/stage_test_images.hpp"

namespace esf {
namespace {

using test::Content;

// Every size of the stage matrix, plus 257x3 and 640x481 (bands of many rows, an odd height;
// small enough for the cross builds' qemu-user runs).
std::vector<test::Size> sizes() {
  std::vector<test::Size> v(std::begin(test::kSmallSizes), std::end(test::kSmallSizes));
  v.push_back({257, 3});
  v.push_back({640, 481});
  return v;
}

TEST(CpuHistogram, EqualsReference) {
  const char* channel_sets[] = {"rgbl", "l", "gr", "b", "lbgr", "rl"};
  for (auto [w, h] : sizes())
    for (Content content : test::kAllContents) {
      const bool large = w * h > 100000;  // 640x481: random content and fewer shapes
      if (large && content != Content::kRandom) continue;
      const RgbaImage img = test::makeImage(w, h, content, uint32_t(w * 31 + h));
      for (LumaWeights luma : {LumaWeights::kBt709, LumaWeights::kBt601})
        for (int bins : {1, 7, 64, 255, 256})
          for (const char* channels : channel_sets) {
            if (large && (bins % 7 != 0 && bins != 256)) continue;
            const std::vector<uint32_t> want = histogramReference(img, bins, channels, luma);
            for (int threads : test::kThreadCounts) {
              RowPool pool(threads);
              ASSERT_EQ(histogramCpu(img, bins, channels, luma, pool), want)
                  << test::describe(w, h, content) << " bins " << bins << " " << channels << " "
                  << lumaWeightsName(luma) << " " << threads << " threads";
            }
          }
    }
}

TEST(CpuHistogram, SourceLumaCountsBytesAsL) {
  // The fused pass counts the source's Y bytes as L: equal to the reference's L of a grey image.
  const RgbaImage src = test::makeImage(257, 3, Content::kRandom, 9);
  RgbaImage grey(src.width, src.height);
  std::vector<uint8_t> y;
  for (size_t i = 0; i < src.pixelCount(); ++i) {
    y.push_back(src.pixels[4 * i]);
    for (int c = 0; c < 3; ++c) grey.pixels[4 * i + size_t(c)] = src.pixels[4 * i];
    grey.pixels[4 * i + 3] = 255;
  }
  for (LumaWeights luma : {LumaWeights::kBt709, LumaWeights::kBt601}) {
    HistogramCounter counter(ChannelSet::of("l"), luma);
    counter.countLuma(y.data(), int(y.size()));
    ValueCounts values;
    counter.drainInto(values);
    EXPECT_EQ(foldBins(values, 64, "l"), histogramReference(grey, 64, "l", luma));
  }
}

TEST(CpuHistogram, CountLumaEqualsPlainCountsOverRunsAndNoise) {
  // Runs of equal values (one add for eight) of seeded random lengths between random values, at
  // every start offset and length up to 40: the plain per-value counts, value for value.
  std::mt19937 rng(27);
  std::vector<uint8_t> values;
  while (values.size() < 5000) {
    const size_t run = rng() % 3 == 0 ? 1 + rng() % 40 : 1;
    values.insert(values.end(), run, uint8_t(rng()));
  }
  for (int start = 0; start < 9; ++start)
    for (int n = 0; n <= 40; ++n) {
      for (int whole : {0, 1}) {
        const int count = whole ? int(values.size()) - start : n;
        HistogramCounter counter(ChannelSet::of("l"), LumaWeights::kBt709);
        counter.countLuma(values.data() + start, count);
        ValueCounts got;
        counter.drainInto(got);
        std::array<uint64_t, 256> want{};
        for (int i = 0; i < count; ++i) ++want[values[size_t(start + i)]];
        ASSERT_EQ(got.counts[3], want) << "start " << start << " n " << count;
      }
    }
}

TEST(CpuHistogram, CountLumaInPairsEqualsPlainCountsAndDrainsClean) {
  // Past kPairsAfter values the counter counts rows of 256 or more in pairs where they pay:
  // smooth rows, noise, runs and flat rows with a few changes, of odd and even lengths and
  // offsets (a pair never spans two rows), drained twice (the second drain must not see the
  // first's pairs), and clear() mid-way.
  std::mt19937 rng(28);
  std::vector<uint8_t> noise(5000), runs;
  for (uint8_t& v : noise) v = uint8_t(rng());
  while (runs.size() < 5000) {
    const size_t run = rng() % 3 == 0 ? 1 + rng() % 40 : 1;
    runs.insert(runs.end(), run, uint8_t(rng()));
  }
  std::vector<uint8_t> flat(5000, 77), smooth(5000);
  for (size_t i = 0; i < flat.size(); i += 97) flat[i] = uint8_t(i);
  for (size_t i = 0; i < smooth.size(); ++i) smooth[i] = uint8_t(i / 24 + rng() % 5);
  // Smooth rows (a gradient with a little noise) are the ones counted in pairs.
  const std::vector<uint8_t>* kinds[] = {&smooth, &noise, &smooth, &runs, &smooth, &flat};
  const int lengths[] = {255, 256, 257, 1919, 1920, 4097, 1921};
  HistogramCounter counter(ChannelSet::of("l"), LumaWeights::kBt709);
  for (int round = 0; round < 3; ++round) {
    std::array<uint64_t, 256> want{};
    uint64_t counted = 0;
    for (int call = 0; counted < 2 * HistogramCounter::kPairsAfter; ++call) {
      const std::vector<uint8_t>& row = *kinds[size_t(call) % 6];
      const size_t start = size_t(call * 7 + round) % 64, n = size_t(lengths[call % 7]);
      counter.countLuma(row.data() + start, int(n));
      for (size_t i = start; i < start + n; ++i) ++want[row[i]];
      counted += n;
    }
    if (round == 2) {  // cleared: only what follows counts
      counter.clear();
      want = {};
      counter.countLuma(noise.data() + 1, 3);
      for (size_t i = 1; i < 4; ++i) ++want[noise[i]];
    }
    ValueCounts got;
    counter.drainInto(got);
    ASSERT_EQ(got.counts[3], want) << "round " << round;
  }
}

TEST(CpuReduce, EqualsReference) {
  for (auto [w, h] : sizes())
    for (Content content : test::kAllContents) {
      const RgbaImage img = test::makeImage(w, h, content, uint32_t(w + h));
      for (int threads : test::kThreadCounts) {
        RowPool pool(threads);
        for (const char* channels : {"rgbl", "l", "bg"})
          ASSERT_EQ(reduceCpu(img, channels, LumaWeights::kBt709, pool),
                    reduceReference(img, channels, LumaWeights::kBt709))
              << test::describe(w, h, content) << " " << channels << " " << threads << " threads";
      }
    }
}

TEST(CpuBlur, EqualsReference) {
  std::vector<test::Size> blur_sizes(std::begin(test::kSmallSizes), std::end(test::kSmallSizes));
  blur_sizes.push_back({257, 3});
  blur_sizes.push_back({320, 181});
  for (auto [w, h] : blur_sizes)
    for (Content content : test::kAllContents) {
      const RgbaImage img = test::makeImage(w, h, content, uint32_t(3 * w + h));
      // 1: identity; 15: the bench's; 301: wider than the small images (clamped edges).
      for (int taps : {1, 3, 15, 301})
        for (int iterations : {1, 2}) {
          if (w * h > 10000 && taps > 15) continue;  // the reference costs taps per pixel
          const RgbaImage want = blurReference(img, taps, iterations);
          for (int threads : test::kThreadCounts) {
            RowPool pool(threads);
            ASSERT_EQ(blurCpu(img, taps, iterations, pool), want)
                << test::describe(w, h, content) << " taps " << taps << " x" << iterations << " "
                << threads << " threads";
          }
        }
    }
}

TEST(CpuBlur, IntoReusedImagesEqualsReference) {
  // The per-frame form: out and scratch kept from an earlier, other-sized call and poisoned; in
  // may be out. 255 and 257: the last u16 windows (the multiply divider stops at 255), 259 the
  // first u32 one.
  RowPool pool(2);
  RgbaImage out = test::poisonedImage(5, 3), scratch = test::poisonedImage(700, 2);
  for (int taps : {3, 15, 255, 257, 259})
    for (auto [w, h] : {test::Size{257, 3}, test::Size{1, 1}, test::Size{300, 7}}) {
      const RgbaImage img = test::makeImage(w, h, Content::kRandom, uint32_t(taps + w));
      const RgbaImage want = blurReference(img, taps, 2);
      blurCpu(img, taps, 2, pool, out, scratch);
      ASSERT_EQ(out, want) << test::describe(w, h, Content::kRandom) << " taps " << taps;
      scratch = test::poisonedImage(w, h);
      out = img;
      blurCpu(out, taps, 1, pool, out, scratch);
      ASSERT_EQ(out, blurReference(img, taps, 1)) << "in place, taps " << taps;
    }
}

TEST(CpuBlur, U16DividerIsExactOrDeclines) {
  // Every divisor the u16 sums can meet, against integer division over the whole range.
  for (uint32_t d = 1; d <= 257; ++d) {
    const simd::U16Divider by = simd::u16Divider(d);
    std::vector<uint16_t> sums;
    for (uint32_t s = 0; s <= 255 * d; ++s) sums.push_back(uint16_t(s));
    std::vector<uint8_t> got(sums.size(), 0xA5);
    simd::divideRounded(sums.data(), by, int(sums.size()), got.data());
    for (size_t s = 0; s < sums.size(); ++s)
      ASSERT_EQ(int(got[s]), int((s + d / 2) / d)) << "divisor " << d << " sum " << s;
    // Every odd window up to 201 taps gets the fast path (a few wider ones fall back to float).
    if (d >= 3 && d <= 201 && d % 2 == 1) {
      EXPECT_TRUE(by.exact) << "odd taps " << d;
    }
  }
}

TEST(CpuResize, IntoAPoisonedImageOfAnotherSize) {
  RowPool pool(2);
  RgbaImage out = test::poisonedImage(3, 3);
  for (auto [w, h] : {test::Size{640, 480}, test::Size{257, 3}, test::Size{64, 48}}) {
    const RgbaImage img = test::makeImage(2 * w, 2 * h, Content::kRandom, uint32_t(w));
    resizeCpu(img, w, h, pool, out);
    ASSERT_EQ(out, resizeReference(img, w, h)) << w << "x" << h;
    out = test::poisonedImage(w, h);  // the same size: written over in place
    resizeCpu(img, w, h, pool, out);
    ASSERT_EQ(out, resizeReference(img, w, h)) << w << "x" << h << " reused";
  }
}

TEST(CpuResize, EqualsReference) {
  struct Case {
    int in_w, in_h, out_w, out_h;
  };
  const Case cases[] = {{1, 1, 1, 1},
                        {257, 3, 1, 1},
                        {257, 3, 128, 2},
                        {257, 3, 257, 3},
                        {640, 480, 320, 240},
                        {640, 480, 213, 97},
                        {127, 129, 50, 51},
                        {1920, 1080, 960, 540},
                        // 2:1 both ways (the halving kernel; 17 and 1: vector tails only), and
                        // odd sources next to it, which take the general path.
                        {34, 6, 17, 3},
                        {2, 2, 1, 1},
                        {514, 6, 257, 3},
                        {257, 6, 128, 3},
                        {514, 7, 257, 3},
                        {35, 6, 17, 3}};
  for (const Case& c : cases)
    for (Content content : test::kAllContents) {
      const RgbaImage img = test::makeImage(c.in_w, c.in_h, content, uint32_t(c.in_w));
      const RgbaImage want = resizeReference(img, c.out_w, c.out_h);
      for (int threads : test::kThreadCounts) {
        RowPool pool(threads);
        ASSERT_EQ(resizeCpu(img, c.out_w, c.out_h, pool), want)
            << test::describe(c.in_w, c.in_h, content) << " -> " << c.out_w << "x" << c.out_h << " "
            << threads << " threads";
      }
    }
}

}  // namespace
}  // namespace esf
