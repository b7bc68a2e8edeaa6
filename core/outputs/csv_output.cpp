#include "core/outputs/csv_output.hpp"

#include <cmath>
#include <cstdio>

#include "core/outputs/frame_summary.hpp"
#include "core/outputs/stdout_writer.hpp"

namespace esf {
namespace {

// RFC 4180: quote a field holding a comma, quote or line break; double the quotes.
std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// Shortest text that reads back as the same double ("%.17g" trimmed is not needed: %.17g
// round-trips, and readers parse it).
std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

constexpr const char* kStatNames[] = {"min", "max", "mean",     "p1",        "p10", "p50",
                                      "p90", "p99", "clip_low", "clip_high", "msv"};

// The health columns (docs/output-formats.md, "Camera health"), in the JSONL object's order.
constexpr const char* kHealthNames[] = {"black",  "black_pixels", "black_level", "black_picture",
                                        "ydif",   "scene_mafd",   "scene_score", "freeze_mafd",
                                        "frozen", "si",           "ti",          "tenengrad",
                                        "entropy"};
std::string healthFields(const HealthFigures& h) {
  std::string r;
  for (double v : {h.black, double(h.black_pixels), double(h.black_level), double(h.black_picture),
                   h.ydif, h.scene_mafd, h.scene_score, h.freeze_mafd, double(h.frozen), h.si, h.ti,
                   h.tenengrad, h.entropy})
    r += "," + number(v);
  if (!h.regions.empty()) r += "," + number(double(h.covered));
  for (const RegionFigures& g : h.regions)
    for (double v : {g.mean, g.tenengrad, g.changed, double(g.flat)}) r += "," + number(v);
  return r;
}
// With regions: health_covered, then health_region<i>_<name> for each region.
constexpr const char* kRegionNames[] = {"mean", "tenengrad", "changed", "flat"};

// --detect's blur and block: empty where the JSONL has null (ffmpeg's nan).
std::string detectorField(float v) {
  return "," + (std::isnan(v) ? std::string() : number(double(v)));
}

}  // namespace

CsvColumns csvColumnsOf(const FrameResult& first, const CsvColumns& asked) {
  return {asked.with_bins, asked.cropdetect || first.cropdetect.has_value()};
}

std::string csvHeader(const FrameResult& f, const CsvColumns& columns) {
  const bool with_bins = columns.with_bins;
  std::string h = "seq,ts_ns,source,width,height,format,dropped";
  for (const ChannelStats& s : f.stats)
    for (const char* name : kStatNames) h += std::string(",") + s.channel + "_" + name;
  h += ",YMIN,YLOW,YAVG,YHIGH,YMAX,ev_hint";
  if (f.signalstats)  // --signalstats: ffmpeg's names, in the JSONL record's order
    for (const NamedFigure& g : signalstatsFigures(*f.signalstats)) h += std::string(",") + g.name;
  if (columns.cropdetect)
    for (const NamedFigure& g : cropdetectFigures({})) h += std::string(",cropdetect_") + g.name;
  if (f.blur) h += ",blur";
  if (f.block) h += ",block";
  if (f.health) {
    for (const char* name : kHealthNames) h += std::string(",health_") + name;
    if (!f.health->regions.empty()) h += ",health_covered";
    for (size_t i = 0; i < f.health->regions.size(); ++i)
      for (const char* name : kRegionNames) h += ",health_region" + std::to_string(i) + "_" + name;
  }
  for (const StageTiming& t : f.timings) h += ",timing_" + t.stage + "_ms";
  if (with_bins) {
    for (int c = 0; c < f.hist.channelCount(); ++c)
      for (int b = 0; b < f.hist.bins; ++b)
        h += std::string(",") + f.hist.channels[size_t(c)] + "_bin" + std::to_string(b);
  }
  if (f.raw) {  // Bayer frames: the levels, per-site clipped and crushed fractions, then bins
    h += ",raw_bits,raw_black,raw_white";
    for (const char* kind : {"clipped", "crushed"})
      for (const char* site : kRawSiteNames) h += std::string(",raw_") + kind + "_" + site;
    if (with_bins)
      for (const char* site : kRawSiteNames)
        for (int b = 0; b < f.raw->bins; ++b)
          h += std::string(",raw_") + site + "_bin" + std::to_string(b);
  }
  return h + "\n";
}

std::string csvRow(const FrameResult& f, const CsvColumns& columns) {
  const bool with_bins = columns.with_bins;
  std::string r = std::to_string(f.seq) + "," + std::to_string(f.ts_ns) + "," + csvField(f.source) +
                  "," + std::to_string(f.width) + "," + std::to_string(f.height) + "," +
                  csvField(f.format) + "," + std::to_string(f.dropped);
  for (const ChannelStats& s : f.stats) {
    for (double v : {double(s.min), double(s.max), s.mean, double(s.p1), double(s.p10),
                     double(s.p50), double(s.p90), double(s.p99), s.clip_low, s.clip_high, s.msv})
      r += "," + number(v);
  }
  // No luma channel: empty fields, as CSV readers take missing values.
  const std::optional<SignalStats> y = signalStats(f);
  if (y) {
    for (double v : {y->ymin, y->ylow, y->yavg, y->yhigh, y->ymax}) r += "," + number(v);
  } else {
    r += ",,,,,";
  }
  const std::optional<double> ev = frameEvHint(f);
  r += "," + (ev ? number(*ev) : std::string());
  if (f.signalstats)
    for (const NamedFigure& g : signalstatsFigures(*f.signalstats)) r += "," + number(g.value);
  if (columns.cropdetect) {
    if (f.cropdetect)
      for (const NamedFigure& g : cropdetectFigures(*f.cropdetect)) r += "," + number(g.value);
    else
      r += ",,,,,,,,";  // cropdetect's skipped frames
  }
  if (f.blur) r += detectorField(*f.blur);
  if (f.block) r += detectorField(*f.block);
  if (f.health) r += healthFields(*f.health);
  for (const StageTiming& t : f.timings) r += "," + number(t.ms);
  if (with_bins) {
    for (int c = 0; c < f.hist.channelCount(); ++c)
      for (int b = 0; b < f.hist.bins; ++b) r += "," + std::to_string(f.hist.at(b, c));
  }
  if (f.raw) {
    const RawHistogramData& raw = *f.raw;
    r += "," + std::to_string(raw.bit_depth) + "," + std::to_string(raw.black) + "," +
         std::to_string(raw.white);
    for (size_t s = 0; s < 4; ++s) r += "," + number(rawFraction(raw.clipped[s], raw.pixels[s]));
    for (size_t s = 0; s < 4; ++s) r += "," + number(rawFraction(raw.crushed[s], raw.pixels[s]));
    if (with_bins)
      for (const auto& counts : raw.counts)
        for (uint32_t c : counts) r += "," + std::to_string(c);
  }
  return r + "\n";
}

Status CsvOutput::write(const FrameResult& frame) {
  std::string text;
  if (!header_written_) {
    columns_ = csvColumnsOf(frame, columns_);
    text = csvHeader(frame, columns_);
  }
  text += csvRow(frame, columns_);
  Status s = writeRecord(fd_, text);
  if (s) header_written_ = true;
  return s;
}

}  // namespace esf
