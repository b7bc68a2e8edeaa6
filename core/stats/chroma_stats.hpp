#pragma once
// ffmpeg signalstats' chroma figures (UMIN..VMAX, UDIF, VDIF) of YUV frames, counted on the
// host from the source's own Cb and Cr samples at chroma resolution (4:2:0 frames: ceil(W/2) x
// ceil(H/2) samples), as signalstats reads its U and V planes. Every backend gives the frames to
// the same counter (core/pipeline/pipeline.cpp), so the figures are the same on each.
// Definitions (docs/output-formats.md, "Chroma"): over the N chroma samples of a plane,
//   min, max       smallest / largest value present
//   low, high      valuePercentile at 10 and 90 of N (YLOW's and YHIGH's rule)
//   avg            sum / N
//   dif            sum |C - previous frame's C| / N, 0 on the first frame and when the chroma
//                  size changed (signalstats compares with the frame itself then)
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"

namespace esf {

class ChromaCounter {
 public:
  // nullopt for frames without chroma (RGB, GREY, Bayer, MJPEG) or without CPU-visible planes;
  // such a frame leaves the previous planes in place.
  std::optional<ChromaFigures> count(const Frame& frame);

 private:
  std::array<std::vector<uint8_t>, 2> previous_;  // Cb, Cr of the last counted frame
  int previous_width_ = -1, previous_height_ = -1;
};

// The figures of one plane's 256 value counts (total samples `samples`) and absolute
// difference sum.
ChromaPlaneFigures chromaPlaneFigures(const std::array<uint64_t, 256>& counts, uint64_t samples,
                                      uint64_t sum, uint64_t difference);

}  // namespace esf
