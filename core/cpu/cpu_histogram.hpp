#pragma once
// The CPU executor's histogram: counts of all 256 values of R, G, B and L, accumulated row by
// row into per-thread tables (so the import can count each row while it is still in cache: the
// fused convert + histogram pass), then folded to any bins and channel order. Equal, bit for bit,
// to histogramReference (core/stages/histogram_reference.hpp).
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "base/channels.hpp"
#include "core/cpu/row_pool.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

// Counts of every 8-bit value per channel code (r=0 g=1 b=2 l=3, channels.hpp).
struct ValueCounts {
  std::array<std::array<uint64_t, 256>, 4> counts{};
  ValueCounts& operator+=(const ValueCounts& other);
};

// Which channels a counter counts, as channel codes.
struct ChannelSet {
  bool r = false, g = false, b = false, l = false;
  static ChannelSet of(std::string_view channels);  // letters of "rgbl"
};

// One thread's counters. Each channel has several replica tables, so consecutive pixels with
// the same value increment different memory and do not wait on each other's stores.
class HistogramCounter {
 public:
  HistogramCounter(ChannelSet channels, LumaWeights luma);
  // Counts the channels of `pixels` RGBA pixels. luma_out non-null: the pixels' L (of the
  // counter's weights) is written there too, counted or not.
  void countRgba(const uint8_t* rgba, int pixels, uint8_t* luma_out = nullptr);
  // Counts `n` bytes as L values (the source's own luma plane).
  void countLuma(const uint8_t* values, int n);
  // Adds the counts to `out` and clears them.
  void drainInto(ValueCounts& out);
  // Clears the counts (of a frame left half counted).
  void clear();

  // countLuma counts the neighbours of rows of 256 or more values in pairs where that pays (not
  // flat, not noise: sampled every 8th row) once this many values were counted since the last
  // drain: a 65536-entry table takes one increment for two values (half the stores, the cost of
  // counting), while draining it adds and clears 65536 entries, which a small image would not
  // repay.
  static constexpr uint64_t kPairsAfter = uint64_t(1) << 16;

 private:
  static constexpr int kReplicas = 4;
  using Table = std::array<std::array<uint32_t, 256>, kReplicas>;
  void countLumaPairs(const uint8_t* values, int n);
  void drainPairsInto(std::array<uint64_t, 256>& out);

  ChannelSet channels_;
  LumaWeights luma_;
  std::array<Table, 4> tables_{};
  std::vector<uint8_t> luma_row_;  // countRgba's L values of the row
  // countLuma's pairs: entry a + 256 b counts the neighbours (a, b) at an even offset of a call.
  std::vector<uint32_t> luma_pairs_;
  uint64_t luma_counted_ = 0;  // countLuma's values since the last drain
  bool counted_ = false;       // anything counted since the last drain or clear
  bool pairs_counted_ = false;
  int rows_until_choice_ = 0;  // rows before countLuma chooses again whether to count in pairs
  bool rows_in_pairs_ = false;
};

// Folds value counts to `bins` bins in the order of `channels`: counts[bin * channels.size() + c]
// with bin = (v * bins) >> 8, the layout of histogramReference.
std::vector<uint32_t> foldBins(const ValueCounts& values, int bins, std::string_view channels);

// The counts of a whole image, on the pool's threads.
ValueCounts countValues(const RgbaImage& image, ChannelSet channels, LumaWeights luma,
                        RowPool& pool);

// histogramReference's contract on the executor.
std::vector<uint32_t> histogramCpu(const RgbaImage& image, int bins, std::string_view channels,
                                   LumaWeights luma, RowPool& pool);

}  // namespace esf
