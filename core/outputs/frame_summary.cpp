#include "core/outputs/frame_summary.hpp"

#include "core/stats/exposure_stats.hpp"

namespace esf {
namespace {

const ChannelStats* lumaStats(const FrameResult& frame) {
  for (const ChannelStats& s : frame.stats)
    if (s.channel == 'l') return &s;
  return nullptr;
}

}  // namespace

std::optional<SignalStats> signalStats(const FrameResult& frame) {
  const ChannelStats* l = lumaStats(frame);
  if (!l) return std::nullopt;
  return SignalStats{double(l->min), double(l->p10), l->mean, double(l->p90), double(l->max)};
}

std::optional<double> frameEvHint(const FrameResult& frame) {
  const ChannelStats* l = lumaStats(frame);
  if (!l) return std::nullopt;
  return evHint(l->msv);
}

double rawFraction(uint64_t count, uint64_t pixels) {
  return pixels ? double(count) / double(pixels) : 0.0;
}

}  // namespace esf
