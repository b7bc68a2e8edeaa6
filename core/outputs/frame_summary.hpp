#pragma once
// Figures every stdout format prints besides the per-channel stats: the ffmpeg signalstats
// names (from the luma channel) and ev_hint.
#include <array>
#include <optional>
#include <vector>

#include "esframe/sink.hpp"

namespace esf {

struct SignalStats {
  double ymin = 0, ylow = 0, yavg = 0, yhigh = 0, ymax = 0;
};

// From the 'l' channel; nullopt when the run has no luma channel.
std::optional<SignalStats> signalStats(const FrameResult& frame);
// ev_hint from the 'l' channel's msv; nullopt without luma or without pixels.
std::optional<double> frameEvHint(const FrameResult& frame);

// A figure and the name ffmpeg prints it by.
struct NamedFigure {
  const char* name;
  double value;
};
// --signalstats' figures in the JSONL record's order: UMIN ... VMAX, UDIF, VDIF, BRNG, SATMIN ...
// SATMAX, HUEMED, HUEAVG, then TOUT and VREP where counted.
std::vector<NamedFigure> signalstatsFigures(const SignalstatsFigures& s);
// cropdetect's x1 x2 y1 y2 w h x y (ffmpeg's lavfi.cropdetect.* keys).
std::array<NamedFigure, 8> cropdetectFigures(const CropDetectFigures& c);

// Bayer frames' raw statistics, as every format names them: raw_r, raw_gr, raw_gb, raw_b.
inline constexpr const char* kRawSiteNames[4] = {"r", "gr", "gb", "b"};
// counts / pixels of one site (0 for a site with no pixels: a 1-pixel-wide frame has no Gr).
double rawFraction(uint64_t count, uint64_t pixels);

}  // namespace esf
