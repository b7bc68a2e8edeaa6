#include "core/outputs/jsonl_output.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "core/outputs/frame_summary.hpp"
#include "core/outputs/scopes_json.hpp"
#include "core/outputs/stdout_writer.hpp"

namespace esf {

std::string jsonlLine(const FrameResult& f) {
  using Json = nlohmann::ordered_json;
  Json j;
  j["seq"] = f.seq;
  j["ts_ns"] = f.ts_ns;
  j["source"] = f.source;
  j["width"] = f.width;
  j["height"] = f.height;
  j["format"] = f.format;
  j["dropped"] = f.dropped;
  j["corrupted"] = f.corrupted;
  j["bins"] = f.hist.bins;
  Json hist = Json::object();
  for (int c = 0; c < f.hist.channelCount(); ++c)
    hist[std::string(1, f.hist.channels[size_t(c)])] = f.hist.channel(c);
  j["hist"] = hist;
  Json stats = Json::object();
  for (const ChannelStats& s : f.stats) {
    stats[std::string(1, s.channel)] = {{"min", s.min},           {"max", s.max},
                                        {"mean", s.mean},         {"p1", s.p1},
                                        {"p10", s.p10},           {"p50", s.p50},
                                        {"p90", s.p90},           {"p99", s.p99},
                                        {"clip_low", s.clip_low}, {"clip_high", s.clip_high},
                                        {"msv", s.msv},           {"pixels", s.count}};
  }
  j["stats"] = stats;
  const std::optional<SignalStats> y = signalStats(f);
  for (auto [name, value] : {std::pair{"YMIN", y ? y->ymin : 0.0},
                             {"YLOW", y ? y->ylow : 0.0},
                             {"YAVG", y ? y->yavg : 0.0},
                             {"YHIGH", y ? y->yhigh : 0.0},
                             {"YMAX", y ? y->ymax : 0.0}}) {
    if (y)
      j[name] = value;
    else
      j[name] = nullptr;
  }
  const std::optional<double> ev = frameEvHint(f);
  if (ev)
    j["ev_hint"] = *ev;
  else
    j["ev_hint"] = nullptr;
  if (f.signalstats)  // --signalstats: docs/output-formats.md, "Signalstats"
    for (const NamedFigure& g : signalstatsFigures(*f.signalstats)) j[g.name] = g.value;
  if (f.cropdetect) {  // --detect: docs/output-formats.md, "Detectors"
    const CropDetectFigures& c = *f.cropdetect;
    j["cropdetect"] = {{"x1", c.x1},
                       {"x2", c.x2},
                       {"y1", c.y1},
                       {"y2", c.y2},
                       {"w", c.w},
                       {"h", c.h},
                       {"x", c.x},
                       {"y", c.y},
                       {"crop", std::to_string(c.w) + ":" + std::to_string(c.h) + ":" +
                                    std::to_string(c.x) + ":" + std::to_string(c.y)}};
  }
  // ffmpeg's float, exactly; NaN (ffmpeg's "nan") as null.
  for (const auto& [name, value] : {std::pair{"blur", &f.blur}, {"block", &f.block}}) {
    if (!*value) continue;
    if (std::isnan(**value))
      j[name] = nullptr;
    else
      j[name] = double(**value);
  }
  Json timing = Json::object();
  Json clocks = Json::object();
  for (const StageTiming& t : f.timings) {
    timing[t.stage] = t.ms;
    clocks[t.stage] = t.gpu ? "gpu" : "wall";
  }
  if (f.auto_exposure) {
    Json controls = Json::object();
    for (const ControlValue& c : f.auto_exposure->controls) controls[c.name] = c.value;
    j["auto_exposure"] = {{"controls", controls},
                          {"measure", f.auto_exposure->measure},
                          {"target", f.auto_exposure->target},
                          {"converged", f.auto_exposure->converged}};
  }
  if (f.raw) {  // Bayer frames: docs/output-formats.md, "Raw statistics"
    const RawHistogramData& raw = *f.raw;
    j["raw_bits"] = raw.bit_depth;
    j["raw_black"] = raw.black;
    j["raw_white"] = raw.white;
    Json clipped = Json::object(), crushed = Json::object();
    for (size_t s = 0; s < 4; ++s) {
      j[std::string("raw_") + kRawSiteNames[s]] = raw.counts[s];
      clipped[kRawSiteNames[s]] = rawFraction(raw.clipped[s], raw.pixels[s]);
      crushed[kRawSiteNames[s]] = rawFraction(raw.crushed[s], raw.pixels[s]);
    }
    j["raw_clipped"] = clipped;
    j["raw_crushed"] = crushed;
  }
  if (f.health) {  // docs/output-formats.md, "Camera health"
    const HealthFigures& h = *f.health;
    j["health"] = {{"black", h.black},
                   {"black_pixels", h.black_pixels},
                   {"black_level", h.black_level},
                   {"black_picture", h.black_picture},
                   {"ydif", h.ydif},
                   {"scene_mafd", h.scene_mafd},
                   {"scene_score", h.scene_score},
                   {"freeze_mafd", h.freeze_mafd},
                   {"frozen", h.frozen},
                   {"si", h.si},
                   {"ti", h.ti},
                   {"tenengrad", h.tenengrad},
                   {"entropy", h.entropy}};
    if (!h.regions.empty()) {
      Json regions = Json::array();
      for (const RegionFigures& r : h.regions)
        regions.push_back({{"mean", r.mean},
                           {"tenengrad", r.tenengrad},
                           {"changed", r.changed},
                           {"flat", r.flat}});
      j["health"]["covered"] = h.covered;
      j["health"]["regions"] = regions;
    }
  }
  Json tail;
  tail["timing_ms"] = timing;
  tail["timing_clock"] = clocks;
  if (!f.scopes) {
    j.update(tail);
    return j.dump() + "\n";
  }
  // The scopes' megabytes of base64 are written as text, not escaped character by character by
  // the serializer: the record, then "scopes", then the timings (docs/output-formats.md, "Scopes").
  std::string line = j.dump();
  line.back() = ',';
  line += "\"scopes\":";
  appendScopesJson(line, *f.scopes);
  std::string timings = tail.dump();
  timings.front() = ',';
  line += timings;
  line += '\n';
  return line;
}

std::string jsonlEventLine(const HealthEvent& e) {
  nlohmann::ordered_json j;
  j["event"] = healthEventName(e.type);
  j["seq"] = e.seq;
  j["ts_ns"] = e.ts_ns;
  switch (e.type) {
    case HealthEventType::kBlackStart:
    case HealthEventType::kFreezeStart:
    case HealthEventType::kCoveredStart:
    case HealthEventType::kCameraOffline:
      j["start_ns"] = e.start_ns;
      break;
    case HealthEventType::kBlackEnd:
    case HealthEventType::kFreezeEnd:
    case HealthEventType::kCoveredEnd:
    case HealthEventType::kCameraOnline:
      j["start_ns"] = e.start_ns;
      j["end_ns"] = e.end_ns;
      j["duration_ns"] = e.end_ns - e.start_ns;
      break;
    case HealthEventType::kSceneChange:
      j["score"] = e.score;
      break;
  }
  return j.dump() + "\n";
}

Status JsonlOutput::write(const FrameResult& frame) {
  std::string text = jsonlLine(frame);
  for (const HealthEvent& e : frame.events) text += jsonlEventLine(e);
  return writeRecord(fd_, text);
}

Status JsonlOutput::writeEvents(const std::vector<HealthEvent>& events) {
  std::string text;
  for (const HealthEvent& e : events) text += jsonlEventLine(e);
  return writeRecord(fd_, text);
}

}  // namespace esf
