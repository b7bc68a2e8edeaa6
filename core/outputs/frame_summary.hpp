#pragma once
// Figures every stdout format prints besides the per-channel stats: the ffmpeg signalstats
// names (from the luma channel) and ev_hint.
#include <optional>

#include "esframe/sink.hpp"

namespace esf {

struct SignalStats {
  double ymin = 0, ylow = 0, yavg = 0, yhigh = 0, ymax = 0;
};

// From the 'l' channel; nullopt when the run has no luma channel.
std::optional<SignalStats> signalStats(const FrameResult& frame);
// ev_hint from the 'l' channel's msv; nullopt without luma or without pixels.
std::optional<double> frameEvHint(const FrameResult& frame);

}  // namespace esf
