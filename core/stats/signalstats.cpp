#include "core/stats/signalstats.hpp"

#include <cmath>
#include <cstdlib>

#include "base/pixel_format.hpp"
#include "core/stats/exposure_stats.hpp"

namespace esf {
namespace {

// signalstats' BRNG limits: broadcast range, whatever the frame's range.
constexpr int kLumaLow = 16, kLumaHigh = 235, kChromaLow = 16, kChromaHigh = 240;

// The byte of `component` of each pixel, as offset tables; false where a plane is not
// CPU-visible or too short for the frame.
bool componentTable(const Frame& frame, const PixelFormatInfo& info, const ComponentLocation& at,
                    int width, int height, ComponentOffsetTable& table) {
  const FramePlane& plane = frame.planes[size_t(at.plane)];
  if (!plane.data) return false;
  if (componentOffset(info, at, width - 1, height - 1, plane.stride) >= plane.size) return false;
  table = componentOffsets(info, at, width, height, plane.stride);
  return true;
}

// Saturation and hue of each (Cb, Cr), as signalstats takes them: saturation truncated from
// hypot, hue from the float atan2f in degrees, rounded to float and floored, 0-359. The same float
// steps as ffmpeg's (no fused multiply-add: CMakeLists.txt), so the same whole degrees.
struct SaturationHue {
  std::array<uint8_t, 65536> saturation;
  std::array<uint16_t, 65536> hue;
};
const SaturationHue& saturationHue() {
  static const SaturationHue table = [] {
    SaturationHue t;
    for (int cb = 0; cb < 256; ++cb) {
      for (int cr = 0; cr < 256; ++cr) {
        const size_t i = size_t(cb) * 256 + size_t(cr);
        t.saturation[i] = uint8_t(std::hypot(cb - 128, cr - 128));
        // floorf: the double product is rounded to float before it is floored.
        const float degrees =
            std::floor(float((180 / M_PI) * std::atan2(float(cb - 128), float(cr - 128)) + 180));
        t.hue[i] = uint16_t(std::fmod(degrees, 360.0f));
      }
    }
    return t;
  }();
  return table;
}

}  // namespace

SignalstatsFigures signalstatsOfCounts(const std::vector<uint32_t>& pairs, uint64_t samples,
                                       uint64_t cb_difference, uint64_t cr_difference,
                                       uint64_t out_of_range_pixels, uint64_t pixels) {
  SignalstatsFigures f;
  f.out_of_range_pixels = out_of_range_pixels;
  f.brng = pixels ? double(out_of_range_pixels) / double(pixels) : 0;
  const SaturationHue& table = saturationHue();
  std::array<uint64_t, 256> cb_counts{}, cr_counts{}, saturation{};
  std::array<uint64_t, 360> hue{};
  uint64_t cb_sum = 0, cr_sum = 0, saturation_sum = 0, hue_sum = 0;
  for (size_t cr = 0; cr < 256; ++cr) {
    for (size_t cb = 0; cb < 256; ++cb) {
      const uint64_t n = pairs[cr * 256 + cb];
      if (!n) continue;
      cb_counts[cb] += n;
      cr_counts[cr] += n;
      cb_sum += n * cb;
      cr_sum += n * cr;
      const size_t at = cb * 256 + cr;
      saturation[table.saturation[at]] += n;
      saturation_sum += n * table.saturation[at];
      hue[table.hue[at]] += n;
      hue_sum += n * table.hue[at];
    }
  }
  f.samples = samples;
  f.u = chromaPlaneFigures(cb_counts, samples, cb_sum, cb_difference);
  f.v = chromaPlaneFigures(cr_counts, samples, cr_sum, cr_difference);
  const ChromaPlaneFigures s = chromaPlaneFigures(saturation, samples, saturation_sum, 0);
  f.sat_min = s.min, f.sat_low = s.low, f.sat_avg = s.avg, f.sat_high = s.high, f.sat_max = s.max;
  uint64_t running = 0;
  for (size_t h = 0; h < hue.size(); ++h) {
    running += hue[h];
    if (running > samples / 2) {
      f.hue_median = uint32_t(h);
      break;
    }
  }
  f.hue_avg = samples ? double(hue_sum) / double(samples) : 0;
  return f;
}

namespace {

uint64_t outOfRangePixels(const Frame& frame, const std::array<ComponentOffsetTable, 3>& at,
                          const std::array<const uint8_t*, 3>& planes) {
  uint64_t count = 0;
  for (int y = 0; y < frame.height; ++y) {
    const uint8_t* rows[3];
    for (size_t p = 0; p < 3; ++p) rows[p] = planes[p] + at[p].row[size_t(y)];
    for (int x = 0; x < frame.width; ++x) {
      const int luma = rows[0][at[0].column[size_t(x)]];
      const int cb = rows[1][at[1].column[size_t(x)]], cr = rows[2][at[2].column[size_t(x)]];
      count += luma < kLumaLow || luma > kLumaHigh || cb < kChromaLow || cb > kChromaHigh ||
               cr < kChromaLow || cr > kChromaHigh;
    }
  }
  return count;
}

bool outlier(int above, int pixel, int below) {
  return ((std::abs(above - pixel) + std::abs(below - pixel)) / 2) - std::abs(below - above) > 4;
}

// The frame's Y as a tight W x H plane.
std::vector<uint8_t> lumaPlane(const Frame& frame, const ComponentOffsetTable& at,
                               const uint8_t* plane) {
  std::vector<uint8_t> luma(size_t(frame.width) * size_t(frame.height));  // within the frame
  uint8_t* out = luma.data();
  for (int y = 0; y < frame.height; ++y) {
    const uint8_t* row = plane + at.row[size_t(y)];
    for (int x = 0; x < frame.width; ++x) *out++ = row[at.column[size_t(x)]];
  }
  return luma;
}

// TOUT and VREP of `frame`'s Y (its offsets `at` in `plane`) into `f`.
void lumaFigures(const Frame& frame, const ComponentOffsetTable& at, const uint8_t* plane,
                 bool tout, bool vrep, SignalstatsFigures& f);

}  // namespace

uint64_t lumaOutliers(const std::vector<uint8_t>& luma, int width, int height) {
  const ptrdiff_t s = width;
  uint64_t count = 0;
  for (int y = 1; y + 1 < height; ++y) {
    const uint8_t* row = luma.data() + y * s;
    // Whether pixels x-1, x, x+1 are outliers against the rows `d` above and below.
    auto three = [&](int x, ptrdiff_t d) {
      for (int i = x - 1; i <= x + 1; ++i)
        if (!outlier(row[i - d], row[i], row[i + d])) return false;
      return true;
    };
    const bool two_rows = y >= 2 && y + 2 < height;
    for (int x = 1; x < width - 1; ++x)
      count += two_rows ? three(x, 2 * s) && three(x, s) : three(x, s);
  }
  return count;
}

uint64_t repeatedRows(const std::vector<uint8_t>& luma, int width, int height) {
  const ptrdiff_t s = width;
  uint64_t rows = 0;
  for (int y = 4; y < height; ++y) {
    const uint8_t* row = luma.data() + y * s;
    uint64_t difference = 0;
    for (int x = 0; x < width; ++x) difference += uint64_t(std::abs(row[x] - row[x - 4 * s]));
    rows += difference < uint64_t(width);
  }
  return rows;
}

void putLumaCounts(SignalstatsFigures& f, int width, int height,
                   std::optional<uint64_t> outlier_pixels, std::optional<uint64_t> repeated_rows) {
  const double pixels = double(width) * double(height);
  if (outlier_pixels) {
    f.tout_pixels = *outlier_pixels;
    f.tout = double(*outlier_pixels) / pixels;
  }
  if (repeated_rows) {
    f.vrep_rows = *repeated_rows;
    f.vrep = double(*repeated_rows) * double(width) / pixels;
  }
}

ChromaPlaneFigures chromaPlaneFigures(const std::array<uint64_t, 256>& counts, uint64_t samples,
                                      uint64_t sum, uint64_t difference) {
  ChromaPlaneFigures f;
  if (samples == 0) return f;
  int lowest = 0, highest = 255;
  while (counts[size_t(lowest)] == 0) ++lowest;
  while (counts[size_t(highest)] == 0) --highest;
  f.min = uint32_t(lowest);
  f.max = uint32_t(highest);
  f.low = valuePercentile(counts, samples, 10);
  f.high = valuePercentile(counts, samples, 90);
  f.avg = double(sum) / double(samples);
  f.dif = double(difference) / double(samples);
  return f;
}

namespace {

void lumaFigures(const Frame& frame, const ComponentOffsetTable& at, const uint8_t* plane,
                 bool tout, bool vrep, SignalstatsFigures& f) {
  const std::vector<uint8_t> luma = lumaPlane(frame, at, plane);
  putLumaCounts(f, frame.width, frame.height,
                tout ? std::optional(lumaOutliers(luma, frame.width, frame.height)) : std::nullopt,
                vrep ? std::optional(repeatedRows(luma, frame.width, frame.height)) : std::nullopt);
}

}  // namespace

std::optional<SignalstatsFigures> lumaSignalstats(const Frame& frame, bool tout, bool vrep) {
  if (!isYuv(frame.format) || frame.width <= 0 || frame.height <= 0) return std::nullopt;
  const PixelFormatInfo& info = pixelFormatInfo(frame.format);
  ComponentOffsetTable at;
  if (!componentTable(frame, info, info.y, frame.width, frame.height, at)) return std::nullopt;
  SignalstatsFigures f;
  lumaFigures(frame, at, frame.planes[size_t(info.y.plane)].data, tout, vrep, f);
  return f;
}

std::optional<SignalstatsFigures> SignalstatsCounter::count(const Frame& frame, bool tout,
                                                            bool vrep) {
  if (!isYuv(frame.format) || frame.width <= 0 || frame.height <= 0) return std::nullopt;
  const PixelFormatInfo& info = pixelFormatInfo(frame.format);
  std::array<ComponentOffsetTable, 3> tables;  // Y, Cb, Cr of each pixel
  std::array<const uint8_t*, 3> planes{};
  const ComponentLocation* components[3] = {&info.y, &info.cb, &info.cr};
  for (size_t p = 0; p < 3; ++p) {
    if (!componentTable(frame, info, *components[p], frame.width, frame.height, tables[p]))
      return std::nullopt;
    planes[p] = frame.planes[size_t(components[p]->plane)].data;
  }
  const int hsub = info.chroma_horizontal_subsampling, vsub = info.chroma_vertical_subsampling;
  const int width = (frame.width + hsub - 1) / hsub, height = (frame.height + vsub - 1) / vsub;
  const size_t samples = size_t(width) * size_t(height);  // within kMaxFrameBytes
  const bool same_size = width == previous_width_ && height == previous_height_;
  std::array<std::vector<uint8_t>, 2> current;
  std::array<uint64_t, 2> difference{};
  for (size_t c = 0; c < 2; ++c) {
    // Chroma sample (x, y) is the one of pixel (x * hsub, y * vsub).
    const ComponentOffsetTable& at = tables[c + 1];
    current[c].resize(samples);
    uint8_t* out = current[c].data();
    const uint8_t* previous = same_size ? previous_[c].data() : nullptr;
    for (int y = 0; y < height; ++y) {
      const uint8_t* row = planes[c + 1] + at.row[size_t(y * vsub)];
      for (int x = 0; x < width; ++x) {
        const uint8_t v = row[at.column[size_t(x * hsub)]];
        if (previous) difference[c] += uint64_t(std::abs(int(v) - int(*previous++)));
        *out++ = v;
      }
    }
  }
  // Every chroma figure is a function of the (Cb, Cr) pairs' counts and the differences.
  std::vector<uint32_t> pairs(256 * 256, 0);
  for (size_t i = 0; i < samples; ++i) ++pairs[size_t(current[1][i]) * 256 + current[0][i]];
  const double pixels = double(frame.width) * double(frame.height);
  SignalstatsFigures figures =
      signalstatsOfCounts(pairs, samples, difference[0], difference[1],
                          outOfRangePixels(frame, tables, planes), uint64_t(pixels));
  if (tout || vrep) lumaFigures(frame, tables[0], planes[0], tout, vrep, figures);
  previous_ = std::move(current);
  previous_width_ = width;
  previous_height_ = height;
  return figures;
}

}  // namespace esf
