#include "core/stats/ffmpeg_planes.hpp"

#include "base/pixel_format.hpp"

namespace esf {
namespace {

// Plane `out` of `component`, sample (x, y) read at pixel (x * step_x, y * step_y), or only its
// size where not `copy`; false where the frame's plane is not CPU-visible or too short for the
// frame.
bool copyComponent(const Frame& frame, const PixelFormatInfo& info, const ComponentLocation& at,
                   int step_x, int step_y, bool copy, FfmpegPlane& out) {
  const FramePlane& plane = frame.planes[size_t(at.plane)];
  if (!plane.data) return false;
  if (componentOffset(info, at, frame.width - 1, frame.height - 1, plane.stride) >= plane.size)
    return false;
  out.width = (frame.width + step_x - 1) / step_x;
  out.height = (frame.height + step_y - 1) / step_y;
  if (!copy) return true;
  const ComponentOffsetTable table =
      componentOffsets(info, at, frame.width, frame.height, plane.stride);
  out.samples.resize(saturatingSize(out.width, out.height));  // within the frame's own size
  uint8_t* to = out.samples.data();
  for (int y = 0; y < out.height; ++y) {
    const uint8_t* row = plane.data + table.row[size_t(y * step_y)];
    for (int x = 0; x < out.width; ++x) *to++ = row[table.column[size_t(x * step_x)]];
  }
  return true;
}

}  // namespace

std::optional<FfmpegPlanes> ffmpegPlanes(const Frame& frame, unsigned wanted) {
  if (frame.width <= 0 || frame.height <= 0) return std::nullopt;
  const PixelFormatInfo& info = pixelFormatInfo(frame.format);
  if (info.bit_depth != 8 || info.packing == Packing::kCompressed) return std::nullopt;
  FfmpegPlanes out;
  struct Component {
    const ComponentLocation* at;
    int step_x, step_y;
  };
  std::vector<Component> components;
  if (info.colour == ColourFamily::kYuv) {
    const int hsub = info.chroma_horizontal_subsampling, vsub = info.chroma_vertical_subsampling;
    out.chroma_shift_x = hsub == 2 ? 1 : 0;
    out.chroma_shift_y = vsub == 2 ? 1 : 0;
    components = {{&info.y, 1, 1}, {&info.cb, hsub, vsub}, {&info.cr, hsub, vsub}};
  } else if (info.colour == ColourFamily::kGrey) {
    components = {{&info.y, 1, 1}};
  } else if (info.colour == ColourFamily::kRgb) {
    out.rgb = true;
    components = {{&info.g, 1, 1}, {&info.b, 1, 1}, {&info.r, 1, 1}};
    if (info.a.present()) components.push_back({&info.a, 1, 1});
  } else {
    return std::nullopt;
  }
  out.planes.resize(components.size());
  for (size_t p = 0; p < components.size(); ++p) {
    if (!components[p].at->present()) return std::nullopt;
    if (!copyComponent(frame, info, *components[p].at, components[p].step_x, components[p].step_y,
                       (wanted >> p) & 1, out.planes[p]))
      return std::nullopt;
  }
  return out;
}

}  // namespace esf
