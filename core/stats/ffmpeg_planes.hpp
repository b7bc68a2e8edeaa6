#pragma once
// A frame as the 8-bit planes ffmpeg's detectors read after its format negotiation: Y, U, V
// (chroma at chroma resolution: 4:2:0 has ceil(W/2) x ceil(H/2) samples, sample (x, y) being
// the one of pixel (x * 2, y * 2)) for YUV formats, which ffmpeg turns into its planar form
// without changing a sample; Y for GREY; G, B, R (and A) for RGB formats, as ffmpeg's gbrp and
// gbrap hold them.
#include <optional>
#include <vector>

#include "esframe/frame.hpp"

namespace esf {

struct FfmpegPlane {
  int width = 0, height = 0;
  std::vector<uint8_t> samples;  // width * height, rows without padding; empty if not wanted
  uint8_t at(int x, int y) const { return samples[size_t(y) * size_t(width) + size_t(x)]; }
};

struct FfmpegPlanes {
  bool rgb = false;  // planes are G, B, R[, A]
  // log2 of the chroma subsampling (ffmpeg's log2_chroma_w/h): planes 1 and 2 of YUV frames.
  int chroma_shift_x = 0, chroma_shift_y = 0;
  std::vector<FfmpegPlane> planes;
};

// The planes of bit mask `wanted` (bit p: plane p) with their samples; the others with their
// size only. nullopt for frames of other formats (Bayer, compressed, more than 8 bits) or
// without CPU-visible planes of the frame's size.
std::optional<FfmpegPlanes> ffmpegPlanes(const Frame& frame, unsigned wanted = ~0u);

}  // namespace esf
