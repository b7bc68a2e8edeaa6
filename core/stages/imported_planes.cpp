#include "core/stages/imported_planes.hpp"

#include "core/stages/luma_signalstats.hpp"
#include "core/stages/scopes.hpp"

namespace esf {
namespace {

int log2Of(int subsampling) {
  return subsampling == 4 ? 2 : subsampling == 2 ? 1 : 0;
}

}  // namespace

std::optional<ImportedPlaneLayout> importedPlaneLayoutOf(PixelFormat format) {
  const PixelFormatInfo& info = pixelFormatInfo(format);
  if (info.bit_depth != 8 || info.packing == Packing::kCompressed) return std::nullopt;
  ImportedPlaneLayout l;
  using Source = ImportedPlaneLayout::Source;
  if (info.colour == ColourFamily::kYuv) {
    const ChromaLayout c = chromaLayoutOf(format);
    l.plane_count = 3;
    l.sources[0] = {0, 1, 0, lumaInGreen(format) ? 1 : 0, 1, 1};
    for (int i = 0; i < 2; ++i) {  // Cb, Cr
      Source& s = l.sources[1 + i];
      s.hsub = c.hsub, s.vsub = c.vsub;
      switch (c.layout) {
        case ChromaPlanes::kPlanar:
          s.texture = 1 + i;
          break;
        case ChromaPlanes::kSemiPlanar:
          s.texture = 1, s.channel = (i == 1) != c.swap_uv ? 1 : 0;
          break;
        case ChromaPlanes::kYuyv:
        case ChromaPlanes::kUyvy:  // texel 2x holds Cb, 2x + 1 Cr; C in G (YUYV) or R (UYVY)
          s.step_x = 2, s.offset_x = i, s.channel = c.layout == ChromaPlanes::kYuyv ? 1 : 0;
          break;
      }
    }
    return l;
  }
  l.in_rgba = true;
  if (info.colour == ColourFamily::kGrey) {
    l.plane_count = 1;
    l.sources[0] = {};  // R = G = B = Y
    return l;
  }
  if (info.colour != ColourFamily::kRgb) return std::nullopt;
  // The RGBA8 image's bytes are exact copies of the source's, its alpha too where it has one.
  l.plane_count = info.a.present() ? 4 : 3;
  l.sources[0].channel = 1;  // G, B, R, A
  l.sources[1].channel = 2;
  l.sources[2].channel = 0;
  l.sources[3].channel = 3;
  return l;
}

std::vector<ImportedPlane> importedPlanesOf(const ImportedFrame& imported,
                                            const ImportedPlaneLayout& layout) {
  std::vector<ImportedPlane> out;
  for (int p = 0; p < layout.plane_count; ++p) {
    ImportedPlane plane;
    const ImportedPlaneLayout::Source& s = layout.sources[p];
    plane.texture = layout.in_rgba ? imported.rgba : imported.planes[s.texture];
    if (layout.in_rgba && !plane.texture) plane.packed = imported.packed_rgba;
    if (!plane.texture && !plane.packed) return {};
    plane.step_x = s.step_x, plane.offset_x = s.offset_x, plane.channel = s.channel;
    plane.width = (imported.width + s.hsub - 1) / s.hsub;
    plane.height = (imported.height + s.vsub - 1) / s.vsub;
    plane.shift_x = log2Of(s.hsub), plane.shift_y = log2Of(s.vsub);
    out.push_back(plane);
  }
  return out;
}

Result<std::vector<ImportedPlane>> requireImportedPlanes(const ImportedFrame& imported,
                                                         const ImportedPlaneLayout& layout,
                                                         const char* stage, PixelFormat format) {
  std::vector<ImportedPlane> planes = importedPlanesOf(imported, layout);
  if (planes.empty())
    return fail(ErrorCode::kInternal, stage, ": the import made no texture of ", formatName(format),
                "'s planes");
  return planes;
}

}  // namespace esf
