#include "core/cpu/cpu_histogram.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "core/cpu/simd_kernels.hpp"

namespace esf {
namespace {

// The integer luma of channels.hpp as weights: L = (wr R + wg G + wb B + round) >> shift.
using LumaFormula = simd::LumaWeightsU32;
constexpr LumaFormula formulaOf(LumaWeights w) {
  return w == LumaWeights::kBt709 ? LumaFormula{13933, 46871, 4732, 32768, 16}
                                  : LumaFormula{77, 150, 29, 128, 8};
}
static_assert(lumaBt709(200, 100, 50) ==
              ((13933u * 200 + 46871u * 100 + 4732u * 50 + 32768) >> 16));
static_assert(lumaBt601(200, 100, 50) == ((77u * 200 + 150u * 100 + 29u * 50 + 128) >> 8));

using Tables = std::array<std::array<std::array<uint32_t, 256>, 4>, 4>;

// One loop per combination of R, G and B, so the inner loop has no per-channel branches. Pixel i
// goes to replica i % 4. (L is computed in vector lanes and counted apart: countRgba.)
template <bool kR, bool kG, bool kB>
void countPixels(const uint8_t* rgba, int pixels, Tables& t) {
  auto one = [&](uint32_t px, int replica) {
    const uint32_t r = px & 0xff, g = (px >> 8) & 0xff, b = (px >> 16) & 0xff;
    if constexpr (kR) ++t[0][size_t(replica)][r];
    if constexpr (kG) ++t[1][size_t(replica)][g];
    if constexpr (kB) ++t[2][size_t(replica)][b];
  };
  int i = 0;
  for (; i + 4 <= pixels; i += 4) {
    uint32_t px[4];
    std::memcpy(px, rgba + 4 * size_t(i), sizeof px);  // little-endian: R in the low byte
    one(px[0], 0);
    one(px[1], 1);
    one(px[2], 2);
    one(px[3], 3);
  }
  for (; i < pixels; ++i) {
    uint32_t px;
    std::memcpy(&px, rgba + 4 * size_t(i), sizeof px);
    one(px, 0);
  }
}

using CountFn = void (*)(const uint8_t*, int, Tables&);
template <int kMask>
constexpr CountFn countFor() {
  return &countPixels<bool(kMask & 1), bool(kMask & 2), bool(kMask & 4)>;
}
template <int... kMasks>
constexpr std::array<CountFn, 8> countTable(std::integer_sequence<int, kMasks...>) {
  return {countFor<kMasks>()...};
}
constexpr std::array<CountFn, 8> kCountByMask = countTable(std::make_integer_sequence<int, 8>());

}  // namespace

ValueCounts& ValueCounts::operator+=(const ValueCounts& other) {
  for (size_t c = 0; c < 4; ++c)
    for (size_t v = 0; v < 256; ++v) counts[c][v] += other.counts[c][v];
  return *this;
}

ChannelSet ChannelSet::of(std::string_view channels) {
  ChannelSet s;
  for (char c : channels) {
    if (c == 'r') s.r = true;
    if (c == 'g') s.g = true;
    if (c == 'b') s.b = true;
    if (c == 'l') s.l = true;
  }
  return s;
}

HistogramCounter::HistogramCounter(ChannelSet channels, LumaWeights luma)
    : channels_(channels), luma_(luma) {}

void HistogramCounter::countRgba(const uint8_t* rgba, int pixels, uint8_t* luma_out) {
  counted_ = true;
  const int rgb_mask = int(channels_.r) | int(channels_.g) << 1 | int(channels_.b) << 2;
  // uint32 tables: a replica counts at most a frame's pixels, under 2^32 (kMaxFrameSide^2 = 2^28).
  if (rgb_mask) kCountByMask[size_t(rgb_mask)](rgba, pixels, tables_);
  if (!channels_.l && !luma_out) return;
  // L of the row in vector lanes first, then counted like source luma.
  if (!luma_out) {
    luma_row_.resize(size_t(pixels));
    luma_out = luma_row_.data();
  }
  simd::lumaOfRgba(rgba, pixels, formulaOf(luma_), luma_out);
  if (channels_.l) countLuma(luma_out, pixels);
}

namespace {

// Whether counting a row of n >= 256 values in pairs beats the plain loop, from 16 windows of 8
// values spread over it (their offsets step by odd amounts so that they do not fall in step with
// a regular pattern). Not where half of them are one value (flat bars, a black or clipped
// picture: there the plain loop's one add for eight equal values is faster), nor where the ends
// of a window are 12 or more apart on average (noise: the pairs spread over the whole table, and
// on a Xeon a noisy row counted in pairs was slower than plainly, although Zen 5 still gained:
// bench/results/zen5-2core-cpu-health.md). A camera's picture (4 apart) and gradients count in
// pairs.
bool pairsPay(const uint8_t* values, int n) {
  const int step = (n - 8) / 16;
  int flat = 0, spread = 0;
  for (int k = 0; k < 16; ++k) {
    const uint8_t* window = values + k * step + (k * 5 & 7);
    uint64_t v;
    std::memcpy(&v, window, sizeof v);
    flat += v == (v & 0xff) * 0x0101010101010101u;
    spread += std::abs(int(window[0]) - int(window[7]));
  }
  return flat < 8 && spread < 16 * 12;
}

}  // namespace

void HistogramCounter::countLuma(const uint8_t* values, int n) {
  counted_ = true;
  luma_counted_ += uint64_t(std::max(n, 0));
  if (luma_counted_ > kPairsAfter && n >= 256) {
    // Rows next to each other look alike: one row in 8 decides for the next 7.
    if (rows_until_choice_-- == 0) {
      rows_until_choice_ = 7;
      rows_in_pairs_ = pairsPay(values, n);
    }
    if (rows_in_pairs_) return countLumaPairs(values, n);
  }
  auto& l = tables_[3];
  int i = 0;
  // Eight values from one load: read byte by byte, each value was loaded again after every
  // count (a table store may alias a uint8_t array, for all the compiler knows). Eight equal
  // values (flat areas: a covered lens, a black or clipped picture, flat graphics) are one add
  // instead of eight increments of one counter, each waiting for the last.
  for (; i + 8 <= n; i += 8) {
    uint64_t v;
    std::memcpy(&v, values + i, sizeof v);
    const uint64_t first = v & 0xff;
    if (v == first * 0x0101010101010101u) {
      l[0][first] += 8;
      continue;
    }
    ++l[0][first];
    ++l[1][(v >> 8) & 0xff];
    ++l[2][(v >> 16) & 0xff];
    ++l[3][(v >> 24) & 0xff];
    ++l[0][(v >> 32) & 0xff];
    ++l[1][(v >> 40) & 0xff];
    ++l[2][(v >> 48) & 0xff];
    ++l[3][v >> 56];
  }
  for (; i < n; ++i) ++l[0][values[i]];
}

void HistogramCounter::countLumaPairs(const uint8_t* values, int n) {
  if (luma_pairs_.empty()) luma_pairs_.assign(size_t(65536), 0);
  pairs_counted_ = true;
  uint32_t* pairs = luma_pairs_.data();
  int i = 0;
  // One table: neighbours in a camera's picture are close, so the pairs counted stay in a few
  // tens of kilobytes of it, and half the stores count a camera's picture or a gradient in about
  // half the time (bench/results/zen5-2core-cpu-health.md).
  for (; i + 8 <= n; i += 8) {
    uint64_t v;
    std::memcpy(&v, values + i, sizeof v);  // little-endian: each pair's first value low
    ++pairs[v & 0xffff];
    ++pairs[(v >> 16) & 0xffff];
    ++pairs[(v >> 32) & 0xffff];
    ++pairs[v >> 48];
  }
  for (; i < n; ++i) ++tables_[3][0][values[i]];
}

void HistogramCounter::drainPairsInto(std::array<uint64_t, 256>& out) {
  // Each value's count as a pair's first (a column) and as its second (a row); u32 sums: a
  // table holds at most a frame's pixels / 2 < 2^31 pairs.
  std::array<uint32_t, 256> as_first{};
  for (size_t second = 0; second < 256; ++second) {
    const uint32_t* row = luma_pairs_.data() + (second << 8);
    uint32_t row_sum = 0;
    for (size_t first = 0; first < 256; ++first) {
      as_first[first] += row[first];
      row_sum += row[first];
    }
    out[second] += row_sum;
  }
  for (size_t v = 0; v < 256; ++v) out[v] += as_first[v];
  std::fill(luma_pairs_.begin(), luma_pairs_.end(), 0u);
  pairs_counted_ = false;
}

void HistogramCounter::drainInto(ValueCounts& out) {
  for (size_t c = 0; c < 4; ++c)
    for (auto& replica : tables_[c]) {
      for (size_t v = 0; v < 256; ++v) out.counts[c][v] += replica[v];
      replica.fill(0);
    }
  if (pairs_counted_) drainPairsInto(out.counts[3]);
  luma_counted_ = 0;
  rows_until_choice_ = 0;
  counted_ = false;
}

void HistogramCounter::clear() {
  // A drained counter is clear already: the executor clears every counter at a frame's start.
  if (!counted_) return;
  counted_ = false;
  for (Table& table : tables_)
    for (auto& replica : table) replica.fill(0);
  if (pairs_counted_) std::fill(luma_pairs_.begin(), luma_pairs_.end(), 0u);
  pairs_counted_ = false;
  luma_counted_ = 0;
  rows_until_choice_ = 0;
}

std::vector<uint32_t> foldBins(const ValueCounts& values, int bins, std::string_view channels) {
  const size_t n = channels.size();
  std::vector<uint32_t> counts(size_t(bins) * n, 0);
  for (size_t c = 0; c < n; ++c) {
    const auto& of = values.counts[size_t(channelCode(channels[c]))];
    for (uint32_t v = 0; v < 256; ++v)
      counts[((v * uint32_t(bins)) >> 8) * n + c] += uint32_t(of[v]);
  }
  return counts;
}

ValueCounts countValues(const RgbaImage& image, ChannelSet channels, LumaWeights luma,
                        RowPool& pool) {
  std::vector<ValueCounts> partial(size_t(pool.threads()));
  pool.forEachBand(image.height, [&](int begin, int end, int index) {
    HistogramCounter counter(channels, luma);
    for (int y = begin; y < end; ++y) counter.countRgba(image.at(0, y), image.width);
    counter.drainInto(partial[size_t(index)]);
  });
  ValueCounts total;
  for (const ValueCounts& p : partial) total += p;
  return total;
}

std::vector<uint32_t> histogramCpu(const RgbaImage& image, int bins, std::string_view channels,
                                   LumaWeights luma, RowPool& pool) {
  return foldBins(countValues(image, ChannelSet::of(channels), luma, pool), bins, channels);
}

}  // namespace esf
