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

std::vector<NamedFigure> signalstatsFigures(const SignalstatsFigures& s) {
  std::vector<NamedFigure> f = {{"UMIN", double(s.u.min)},
                                {"ULOW", double(s.u.low)},
                                {"UAVG", s.u.avg},
                                {"UHIGH", double(s.u.high)},
                                {"UMAX", double(s.u.max)},
                                {"VMIN", double(s.v.min)},
                                {"VLOW", double(s.v.low)},
                                {"VAVG", s.v.avg},
                                {"VHIGH", double(s.v.high)},
                                {"VMAX", double(s.v.max)},
                                {"UDIF", s.u.dif},
                                {"VDIF", s.v.dif},
                                {"BRNG", s.brng},
                                {"SATMIN", double(s.sat_min)},
                                {"SATLOW", double(s.sat_low)},
                                {"SATAVG", s.sat_avg},
                                {"SATHIGH", double(s.sat_high)},
                                {"SATMAX", double(s.sat_max)},
                                {"HUEMED", double(s.hue_median)},
                                {"HUEAVG", s.hue_avg}};
  if (s.tout) f.push_back({"TOUT", *s.tout});
  if (s.vrep) f.push_back({"VREP", *s.vrep});
  return f;
}

std::array<NamedFigure, 8> cropdetectFigures(const CropDetectFigures& c) {
  return {{{"x1", double(c.x1)},
           {"x2", double(c.x2)},
           {"y1", double(c.y1)},
           {"y2", double(c.y2)},
           {"w", double(c.w)},
           {"h", double(c.h)},
           {"x", double(c.x)},
           {"y", double(c.y)}}};
}

double rawFraction(uint64_t count, uint64_t pixels) {
  return pixels ? double(count) / double(pixels) : 0.0;
}

}  // namespace esf
