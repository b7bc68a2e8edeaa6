#include "core/stages/scopes_reference.hpp"

#include <algorithm>

#include "base/channels.hpp"
#include "base/pixel_format.hpp"

namespace esf {

int scopeColumns(const ScopeOptions& options, int width) {
  const int asked = options.columns > 0 ? options.columns : kScopeDefaultMaxColumns;
  return std::max(1, std::min(asked, width));
}

std::vector<uint32_t> waveformReference(const RgbaImage& image, const RgbaImage* luma,
                                        int columns) {
  std::vector<uint32_t> counts(size_t(columns) * 256, 0);
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const uint8_t* px = image.at(x, y);
      const uint32_t level = luma ? luma->at(x, y)[0] : lumaBt709(px[0], px[1], px[2]);
      ++counts[size_t(scopeColumnOf(x, columns, image.width)) * 256 + level];
    }
  }
  return counts;
}

std::vector<uint32_t> paradeReference(const RgbaImage& image, int columns) {
  std::vector<uint32_t> counts(3 * size_t(columns) * 256, 0);
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const uint8_t* px = image.at(x, y);
      const size_t column = size_t(scopeColumnOf(x, columns, image.width));
      for (size_t c = 0; c < 3; ++c) ++counts[(c * size_t(columns) + column) * 256 + px[c]];
    }
  }
  return counts;
}

std::vector<uint32_t> vectorscopeRgbReference(const RgbaImage& image) {
  std::vector<uint32_t> counts(256 * 256, 0);
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const uint8_t* px = image.at(x, y);
      ++counts[scopeCr(px[0], px[1], px[2]) * 256 + scopeCb(px[0], px[1], px[2])];
    }
  }
  return counts;
}

bool chromaSamplesOf(const Frame& frame, ChromaSamples& out) {
  if (!isYuv(frame.format) || frame.width <= 0 || frame.height <= 0) return false;
  const PixelFormatInfo& info = pixelFormatInfo(frame.format);
  const ComponentLocation* components[2] = {&info.cb, &info.cr};
  for (size_t c = 0; c < 2; ++c) {
    const FramePlane& plane = frame.planes[size_t(components[c]->plane)];
    if (!plane.data || componentOffset(info, *components[c], frame.width - 1, frame.height - 1,
                                       plane.stride) >= plane.size)
      return false;
    (c ? out.cr_at : out.cb_at) =
        componentOffsets(info, *components[c], frame.width, frame.height, plane.stride);
    (c ? out.cr : out.cb) = plane.data;
  }
  out.hsub = info.chroma_horizontal_subsampling;
  out.vsub = info.chroma_vertical_subsampling;
  out.width = (frame.width + out.hsub - 1) / out.hsub;
  out.height = (frame.height + out.vsub - 1) / out.vsub;
  return true;
}

bool vectorscopeSourceReference(const Frame& frame, std::vector<uint32_t>& counts,
                                uint64_t& samples) {
  ChromaSamples c;
  if (!chromaSamplesOf(frame, c)) return false;
  counts.assign(256 * 256, 0);
  for (int y = 0; y < c.height; ++y) {
    for (int x = 0; x < c.width; ++x) {
      const uint8_t cb = c.cb[c.cb_at.row[size_t(y * c.vsub)] + c.cb_at.column[size_t(x * c.hsub)]];
      const uint8_t cr = c.cr[c.cr_at.row[size_t(y * c.vsub)] + c.cr_at.column[size_t(x * c.hsub)]];
      ++counts[size_t(cr) * 256 + cb];
    }
  }
  samples = uint64_t(c.width) * uint64_t(c.height);
  return true;
}

}  // namespace esf
