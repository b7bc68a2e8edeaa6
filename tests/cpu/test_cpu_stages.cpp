// The executor's histogram, reduce, blur and resize against the plain references, bit for bit:
// seeded random, flat and gradient images of odd sizes (1x1, 257x3, ...), every channel string
// shape, several bin counts, both luma weights, poisoned outputs, several thread counts.
#include <gtest/gtest.h>

#include "core/cpu/cpu_blur.hpp"
#include "core/cpu/cpu_histogram.hpp"
#include "core/cpu/cpu_reduce.hpp"
#include "core/cpu/cpu_resize.hpp"
#include "core/stages/blur_reference.hpp"
#include "core/stages/histogram_reference.hpp"
#include "core/stages/reduce_reference.hpp"
#include "core/stages/resize_reference.hpp"
#include "tests/cpu/cpu_test_util.hpp"
#include "tests/stages/stage_test_images.hpp"

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

TEST(CpuResize, EqualsReference) {
  struct Case {
    int in_w, in_h, out_w, out_h;
  };
  const Case cases[] = {{1, 1, 1, 1},       {257, 3, 1, 1},        {257, 3, 128, 2},
                        {257, 3, 257, 3},   {640, 480, 320, 240},  {640, 480, 213, 97},
                        {127, 129, 50, 51}, {1920, 1080, 960, 540}};
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
