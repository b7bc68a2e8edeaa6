#include "core/stats/chroma_stats.hpp"

#include <cstdlib>

#include "base/pixel_format.hpp"
#include "core/stats/exposure_stats.hpp"

namespace esf {

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

std::optional<ChromaFigures> ChromaCounter::count(const Frame& frame) {
  if (!isYuv(frame.format)) return std::nullopt;
  const PixelFormatInfo& info = pixelFormatInfo(frame.format);
  const int hsub = info.chroma_horizontal_subsampling, vsub = info.chroma_vertical_subsampling;
  const int width = (frame.width + hsub - 1) / hsub, height = (frame.height + vsub - 1) / vsub;
  if (width <= 0 || height <= 0) return std::nullopt;
  const size_t samples = size_t(width) * size_t(height);  // within kMaxFrameBytes
  const bool same_size = width == previous_width_ && height == previous_height_;
  std::array<std::vector<uint8_t>, 2> current;
  ChromaFigures figures;
  figures.samples = samples;
  const ComponentLocation* components[2] = {&info.cb, &info.cr};
  for (size_t c = 0; c < 2; ++c) {
    const ComponentLocation& at = *components[c];
    const FramePlane& plane = frame.planes[size_t(at.plane)];
    const size_t last =
        componentOffset(info, at, (width - 1) * hsub, (height - 1) * vsub, plane.stride);
    if (!plane.data || last >= plane.size) return std::nullopt;
    const ComponentOffsetTable offsets =
        componentOffsets(info, at, (width - 1) * hsub + 1, (height - 1) * vsub + 1, plane.stride);
    std::array<uint64_t, 256> counts{};
    uint64_t sum = 0, difference = 0;
    current[c].resize(samples);
    uint8_t* out = current[c].data();
    const uint8_t* previous = same_size ? previous_[c].data() : nullptr;
    for (int y = 0; y < height; ++y) {
      const uint8_t* row = plane.data + offsets.row[size_t(y * vsub)];
      for (int x = 0; x < width; ++x) {
        const uint8_t v = row[offsets.column[size_t(x * hsub)]];
        ++counts[v];
        sum += v;
        if (previous) difference += uint64_t(std::abs(int(v) - int(*previous++)));
        *out++ = v;
      }
    }
    (c == 0 ? figures.u : figures.v) = chromaPlaneFigures(counts, samples, sum, difference);
  }
  previous_ = std::move(current);
  previous_width_ = width;
  previous_height_ = height;
  return figures;
}

}  // namespace esf
