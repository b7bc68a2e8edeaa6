#pragma once
// ffmpeg signalstats' figures of YUV frames beside the Y ones: UMIN..VMAX, UDIF, VDIF, BRNG,
// SATMIN..SATMAX, HUEMED and HUEAVG, counted from the source's own planes as signalstats reads
// its Y, U and V planes (the chroma at chroma resolution: 4:2:0 frames have ceil(W/2) x
// ceil(H/2) samples): on the host (SignalstatsCounter, the references and the executor), or from
// the counts the GPU makes beside the vectorscope (signalstatsOfCounts, the code both share; TOUT
// and VREP from lumaOutliers' and repeatedRows' counts, or the GPU's of the Y plane on the GPU
// backend: putLumaCounts). Definitions
// (docs/output-formats.md, "Signalstats"): over the N samples of a chroma plane,
//   min, max       smallest / largest value present
//   low, high      valuePercentile at 10 and 90 of N (YLOW's and YHIGH's rule)
//   avg            sum / N
//   dif            sum |C - previous frame's C| / N, 0 on the first frame and when the chroma
//                  size changed (signalstats compares with the frame itself then)
// the same min..max of the samples' saturation, their hue's median and mean
// (SignalstatsFigures), and over the W x H pixels, each with the chroma sample of its block,
//   brng           the fraction with Y < 16, Y > 235, Cb or Cr < 16 or > 240
// and, when asked (signalstats' stat=tout, stat=vrep), over Y,
//   tout           the fraction of pixels that are vertical outliers (lumaOutliers)
//   vrep           rows repeating the row 4 above (repeatedRows) * W / (W * H)
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"

namespace esf {

class SignalstatsCounter {
 public:
  // nullopt for frames without chroma (RGB, GREY, Bayer, MJPEG) or without CPU-visible planes;
  // such a frame leaves the previous planes in place.
  std::optional<SignalstatsFigures> count(const Frame& frame, bool tout = false, bool vrep = false);

 private:
  std::array<std::vector<uint8_t>, 2> previous_;  // Cb, Cr of the last counted frame
  int previous_width_ = -1, previous_height_ = -1;
};

// The figures but TOUT and VREP from the counts of each (Cb, Cr) pair of a frame's `samples`
// chroma samples, index cr * 256 + cb (ScopeCounts::vectorscope's layout), each chroma plane's
// sum |C - previous frame's C| (0 for none), and its out-of-range pixels of `pixels`.
SignalstatsFigures signalstatsOfCounts(const std::vector<uint32_t>& pairs, uint64_t samples,
                                       uint64_t cb_difference, uint64_t cr_difference,
                                       uint64_t out_of_range_pixels, uint64_t pixels);

// TOUT and VREP alone (the figures' other fields left as they are made), from `frame`'s Y; nullopt
// where its Y plane is not CPU-visible.
std::optional<SignalstatsFigures> lumaSignalstats(const Frame& frame, bool tout, bool vrep);

// TOUT and VREP into `f` from their counts on a width x height frame (each where given): the
// host's counts and the GPU's (core/stages/luma_signalstats.hpp) become figures here.
void putLumaCounts(SignalstatsFigures& f, int width, int height,
                   std::optional<uint64_t> outlier_pixels, std::optional<uint64_t> repeated_rows);

// The figures of one plane's 256 value counts (total samples `samples`) and absolute
// difference sum.
ChromaPlaneFigures chromaPlaneFigures(const std::array<uint64_t, 256>& counts, uint64_t samples,
                                      uint64_t sum, uint64_t difference);

// signalstats' filter_tout on a W x H luma plane: the pixels (x in 1..W-2, y in 1..H-2) that,
// with their left and right neighbours, are each an outlier against the pixels one row above
// and below, and (where rows 2 away exist) two rows above and below; a pixel Y between A above
// and B below is an outlier when (|A - Y| + |B - Y|) / 2 - |B - A| > 4 (integer division).
uint64_t lumaOutliers(const std::vector<uint8_t>& luma, int width, int height);
// signalstats' filter_vrep: the rows y >= 4 whose sum |Y(x, y) - Y(x, y - 4)| is below W.
uint64_t repeatedRows(const std::vector<uint8_t>& luma, int width, int height);

}  // namespace esf
