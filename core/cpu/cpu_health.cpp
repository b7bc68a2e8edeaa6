#include "core/cpu/cpu_health.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <vector>

#include "core/stages/sobel_reference.hpp"

namespace esf {
namespace {

// The full-range luma of every 8-bit value: one table, no division per pixel.
std::array<uint8_t, 256> fullRangeTable(bool full_range) {
  std::array<uint8_t, 256> t{};
  for (uint32_t v = 0; v < 256; ++v) t[v] = uint8_t(fullRangeLuma(v, full_range));
  return t;
}

}  // namespace

FrameDifferenceSums frameDifferenceCpu(const uint8_t* luma, const uint8_t* previous,
                                       const uint8_t* reference, int width, int height,
                                       bool full_range, const HealthRegionSpec& regions,
                                       RowPool& pool) {
  if (!previous) previous = luma;
  if (!reference) reference = luma;
  const std::array<uint8_t, 256> f = fullRangeTable(full_range);
  const std::vector<RegionSpan> spans = healthRegionSpans(regions, width, height);
  std::vector<FrameDifferenceSums> bands(size_t(pool.threads()));
  for (FrameDifferenceSums& s : bands) {
    s.region_luma.assign(spans.size(), 0);
    s.region_changed.assign(spans.size(), 0);
  }
  const size_t w = size_t(width);
  pool.forEachBand(height, [&](int begin, int end, int index) {
    FrameDifferenceSums& s = bands[size_t(index)];
    for (int y = begin; y < end; ++y) {
      const size_t row = size_t(y) * w;
      const uint8_t* c = luma + row;
      const uint8_t* p = previous + row;
      const uint8_t* r = reference + row;
      // Row sums in 32 bits (a row of up to 65536 pixels: 255 * 65536 and 65025 * 65536 fit),
      // then into the band's 64-bit sums.
      uint32_t sad_p = 0, sad_r = 0, squares = 0;
      int32_t motion = 0;
      for (size_t x = 0; x < w; ++x) {
        sad_p += uint32_t(std::abs(int(c[x]) - int(p[x])));
        sad_r += uint32_t(std::abs(int(c[x]) - int(r[x])));
        const int m = int(f[c[x]]) - int(f[p[x]]);
        motion += m;
        squares += uint32_t(m * m);
      }
      for (size_t x = 0; x < w; ++x) ++s.histogram[c[x]];
      s.sad_previous += sad_p;
      s.sad_reference += sad_r;
      s.motion_sum += motion;
      s.motion_squares += squares;
      for (size_t r = 0; r < spans.size(); ++r) {
        const RegionSpan& span = spans[r];
        if (y < span.y0 || y >= span.y1) continue;
        uint32_t sum = 0, changed = 0;  // 32 bits: a row of up to 65536 pixels
        for (int x = span.x0; x < span.x1; ++x) {
          sum += c[x];
          changed += uint32_t(std::abs(int(c[x]) - int(p[x]))) > regions.change_level;
        }
        s.region_luma[r] += sum;
        s.region_changed[r] += changed;
      }
    }
  });
  FrameDifferenceSums total;
  total.region_luma.assign(spans.size(), 0);
  total.region_changed.assign(spans.size(), 0);
  for (const FrameDifferenceSums& s : bands) {
    for (size_t r = 0; r < spans.size(); ++r) {
      total.region_luma[r] += s.region_luma[r];
      total.region_changed[r] += s.region_changed[r];
    }
    total.sad_previous += s.sad_previous;
    total.sad_reference += s.sad_reference;
    total.motion_sum += s.motion_sum;
    total.motion_squares += s.motion_squares;
    for (size_t b = 0; b < 256; ++b) total.histogram[b] += s.histogram[b];
  }
  return total;
}

SobelSums sobelCpu(const uint8_t* luma, int width, int height, bool full_range,
                   const HealthRegionSpec& regions, RowPool& pool) {
  SobelSums total;
  const std::vector<RegionSpan> spans = healthRegionSpans(regions, width, height);
  total.region_squares.assign(spans.size(), 0);
  if (width < 3 || height < 3) return total;
  const std::array<uint8_t, 256> table = fullRangeTable(full_range);
  std::vector<uint8_t> f(size_t(width) * size_t(height));
  pool.forEachBand(height, [&](int begin, int end, int) {
    for (size_t i = size_t(begin) * size_t(width); i < size_t(end) * size_t(width); ++i)
      f[i] = table[luma[i]];
  });
  std::vector<SobelSums> bands(size_t(pool.threads()));
  for (SobelSums& s : bands) s.region_squares.assign(spans.size(), 0);
  pool.forEachBand(height - 2, [&](int begin, int end, int index) {
    SobelSums& s = bands[size_t(index)];
    // With regions, the row's magnitudes are kept for their spans.
    std::vector<uint32_t> row_m(spans.empty() ? 0 : size_t(width));
    // q^2 < 2^54: 512 of them fit a 64-bit sum before it joins the 96-bit one.
    constexpr int kChunk = 512;
    for (int y = begin + 1; y < end + 1; ++y) {
      for (int x0 = 1; x0 < width - 1; x0 += kChunk) {
        const int x1 = std::min(width - 1, x0 + kChunk);
        uint64_t squares = 0, roots = 0, root_squares = 0;
        for (int x = x0; x < x1; ++x) {
          const uint32_t m = sobelMagnitudeSquared(f.data(), width, x, y);
          if (!row_m.empty()) row_m[size_t(x)] = m;
          const uint64_t q = sobelRoot(m);
          squares += m;
          roots += q;
          root_squares += q * q;
        }
        s.squares += squares;
        s.roots += roots;
        s.root_squares.add(root_squares);
      }
      for (size_t r = 0; r < spans.size(); ++r) {
        const RegionSpan& span = spans[r];
        if (y < span.y0 || y >= span.y1) continue;
        uint64_t sum = 0;
        for (int x = std::max(span.x0, 1); x < std::min(span.x1, width - 1); ++x)
          sum += row_m[size_t(x)];
        s.region_squares[r] += sum;
      }
    }
  });
  total.samples = uint64_t(width - 2) * uint64_t(height - 2);
  for (const SobelSums& s : bands) {
    for (size_t r = 0; r < spans.size(); ++r) total.region_squares[r] += s.region_squares[r];
    total.squares += s.squares;
    total.roots += s.roots;
    total.root_squares.add(s.root_squares);
  }
  return total;
}

}  // namespace esf
