#pragma once
// A frame's ffmpeg planes (core/stats/ffmpeg_planes.hpp: Y, U, V; Y; G, B, R, A) where the
// import left them on the GPU, zero-copy frames too: the stages that count what ffmpeg's filters
// count (blurdetect, blockdetect) read them from here.
#include <GLES3/gl31.h>

#include <optional>
#include <vector>

#include "base/pixel_format.hpp"
#include "core/import/frame_import.hpp"
#include "esframe/base/result.hpp"

namespace esf {

// One of a frame's ffmpeg planes on the GPU: sample (x, y) is byte `channel` of texel
// (x * step_x + offset_x, y) of `texture`, or of that pixel of `packed` (a PackedRgbaBuffer's
// buffer, the plane's size) where texture is 0.
struct ImportedPlane {
  GLuint texture = 0, packed = 0;
  int step_x = 1, offset_x = 0, channel = 0;
  int width = 0, height = 0;     // samples
  int shift_x = 0, shift_y = 0;  // log2 of the chroma subsampling (0 for Y, G, B, R)
};

// Where a format's ffmpeg planes lie in what its import makes: Y, U, V of YUV formats in the
// plane textures (what yuvPlaneLayout says), Y of GREY and G, B, R of RGB formats in the RGBA8
// image or packed buffer (and A, plane 3, of those with alpha). nullopt for the formats ffmpeg's
// filters do not take (Bayer, compressed, deeper than 8 bits).
struct ImportedPlaneLayout {
  bool in_rgba = false;  // the planes are bytes of ImportedFrame::rgba or ::packed_rgba
  int plane_count = 0;   // ffmpeg's planes of the format
  // Per plane: the plane texture index (in_rgba: unused), step, offset, channel, subsampling.
  struct Source {
    int texture = 0, step_x = 1, offset_x = 0, channel = 0, hsub = 1, vsub = 1;
  };
  Source sources[4];
};
std::optional<ImportedPlaneLayout> importedPlaneLayoutOf(PixelFormat format);
// The planes of a frame the import has just converted; empty where the import made none of
// them.
std::vector<ImportedPlane> importedPlanesOf(const ImportedFrame& imported,
                                            const ImportedPlaneLayout& layout);

// The same for a stage that counts every frame of `format`: an import that made none of its
// planes is an internal error naming `stage` and the format.
Result<std::vector<ImportedPlane>> requireImportedPlanes(const ImportedFrame& imported,
                                                         const ImportedPlaneLayout& layout,
                                                         const char* stage, PixelFormat format);

}  // namespace esf
