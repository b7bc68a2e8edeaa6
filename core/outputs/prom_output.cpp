#include "core/outputs/prom_output.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

#include "base/atomic_file.hpp"
#include "core/outputs/frame_summary.hpp"

namespace esf {
namespace {

// A label value: backslash, double quote and newline escaped (exposition format 0.0.4).
std::string escapeLabel(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"')
      out += '\\', out += c;
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

// The shortest text that reads back as the same double (the JSONL prints doubles the same way);
// NaN as the exposition format spells it.
std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

class MetricsText {
 public:
  explicit MetricsText(const std::string& source) : source_(escapeLabel(source)) {}

  void family(const std::string& name, const char* type, const std::string& help) {
    text_ += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
    name_ = name;
  }
  // One sample of the current family; `labels` are extra ones: `channel="r"`.
  void sample(const std::string& value, const std::string& labels = "") {
    text_ += name_ + "{source=\"" + source_ + "\"" + (labels.empty() ? "" : "," + labels) + "} " +
             value + "\n";
  }
  const std::string& text() const { return text_; }

 private:
  std::string source_;
  std::string name_;
  std::string text_;
};

std::string lowerCase(const char* name) {
  std::string out(name);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// --signalstats and --detect (docs/output-formats.md, "Signalstats", "Detectors"): a gauge per
// figure, named after ffmpeg's key in lower case.
void detectorFamilies(MetricsText& m, const FrameResult& f) {
  if (f.signalstats)
    for (const NamedFigure& g : signalstatsFigures(*f.signalstats)) {
      m.family("esframe_signalstats_" + lowerCase(g.name), "gauge",
               std::string("ffmpeg signalstats' ") + g.name + " of the latest frame.");
      m.sample(number(g.value));
    }
  if (f.cropdetect) {
    // Lengths in pixels, spelled out as the exposition format's conventions want (no "_h").
    const char* kMetrics[] = {"x1", "x2", "y1", "y2", "width", "height", "x", "y"};
    const std::array<NamedFigure, 8> figures = cropdetectFigures(*f.cropdetect);
    for (size_t i = 0; i < figures.size(); ++i) {
      m.family(std::string("esframe_cropdetect_") + kMetrics[i] + "_pixels", "gauge",
               std::string("ffmpeg cropdetect's ") + figures[i].name +
                   " (lavfi.cropdetect key) over the frames so far.");
      m.sample(number(figures[i].value));
    }
  }
  // NaN where ffmpeg prints nan (blurdetect: no block with edges).
  if (f.blur) {
    m.family("esframe_blur", "gauge", "ffmpeg blurdetect's lavfi.blur of the latest frame.");
    m.sample(number(double(*f.blur)));
  }
  if (f.block) {
    m.family("esframe_block", "gauge", "ffmpeg blockdetect's lavfi.block of the latest frame.");
    m.sample(number(double(*f.block)));
  }
}

}  // namespace

void RunCounts::add(const FrameResult& frame) {
  ++frames;
  source_dropped += frame.dropped;
  source_corrupted += frame.corrupted;
  add(frame.events);
}

void RunCounts::add(const std::vector<HealthEvent>& seen) {
  for (const HealthEvent& e : seen) ++events[size_t(e.type)];
}

std::string promText(const FrameResult& f, const RunCounts& counts) {
  const HealthEventCounts& events = counts.events;
  MetricsText m(f.source);
  m.family("esframe_frames_total", "counter", "Frames processed since the run started.");
  m.sample(std::to_string(counts.frames));
  m.family("esframe_source_dropped_frames_total", "counter",
           "Frames the source lost (sequence gaps) since the run started.");
  m.sample(std::to_string(counts.source_dropped));
  m.family("esframe_source_corrupted_frames_total", "counter",
           "Frames the source skipped as damaged (a driver's error buffers, a network stream's "
           "data lost in transit) since the run started.");
  m.sample(std::to_string(counts.source_corrupted));
  // A network source's outages: each camera_offline is followed by its camera_online.
  m.family("esframe_camera_up", "gauge",
           "1 while the source delivers frames, 0 during a network source's outage.");
  m.sample(events[size_t(HealthEventType::kCameraOffline)] >
                   events[size_t(HealthEventType::kCameraOnline)]
               ? "0"
               : "1");
  m.family("esframe_last_frame_sequence", "gauge", "Sequence number of the latest frame.");
  m.sample(std::to_string(f.seq));
  m.family("esframe_frame_width_pixels", "gauge", "Width of the processed image.");
  m.sample(std::to_string(f.width));
  m.family("esframe_frame_height_pixels", "gauge", "Height of the processed image.");
  m.sample(std::to_string(f.height));

  struct Figure {
    const char* name;
    const char* help;
    double (*value)(const ChannelStats&);
  };
  static constexpr Figure kFigures[] = {
      {"esframe_channel_mean", "Mean 8-bit value of the channel in the latest frame.",
       [](const ChannelStats& s) { return s.mean; }},
      {"esframe_channel_min", "Smallest 8-bit value of the channel in the latest frame.",
       [](const ChannelStats& s) { return double(s.min); }},
      {"esframe_channel_max", "Largest 8-bit value of the channel in the latest frame.",
       [](const ChannelStats& s) { return double(s.max); }},
      {"esframe_channel_clip_low_ratio",
       "Fraction of the channel's pixels at 0 in the latest frame.",
       [](const ChannelStats& s) { return s.clip_low; }},
      {"esframe_channel_clip_high_ratio",
       "Fraction of the channel's pixels at 255 in the latest frame.",
       [](const ChannelStats& s) { return s.clip_high; }},
      {"esframe_channel_msv", "Mean sample value (1..5) of the channel in the latest frame.",
       [](const ChannelStats& s) { return s.msv; }},
  };
  for (const Figure& fig : kFigures) {
    m.family(fig.name, "gauge", fig.help);
    for (const ChannelStats& s : f.stats)
      m.sample(number(fig.value(s)), "channel=\"" + std::string(1, s.channel) + "\"");
  }
  m.family("esframe_channel_percentile", "gauge",
           "8-bit value at the given percentile of the channel's pixels, latest frame.");
  for (const ChannelStats& s : f.stats) {
    const std::string channel = "channel=\"" + std::string(1, s.channel) + "\"";
    // "percentile", not "quantile": Prometheus keeps that label for summaries.
    for (auto [percentile, value] :
         {std::pair{"1", s.p1}, {"10", s.p10}, {"50", s.p50}, {"90", s.p90}, {"99", s.p99}})
      m.sample(std::to_string(value), channel + ",percentile=\"" + percentile + "\"");
  }
  if (f.health) {  // docs/output-formats.md, "Camera health"
    const HealthFigures& h = *f.health;
    const std::pair<const char*, const char*> gauges[] = {
        {"esframe_health_black_ratio", "Fraction of the luma at or below the black level."},
        {"esframe_health_black_picture", "1 when the latest frame is black (blackdetect's rule)."},
        {"esframe_health_ydif", "Mean absolute luma difference to the previous frame."},
        {"esframe_health_scene_score", "scdet's scene score (0-100) of the latest frame."},
        {"esframe_health_freeze_mafd", "freezedetect's MAFD to the freeze reference frame."},
        {"esframe_health_frozen", "1 when the latest frame is frozen (freezedetect's rule)."},
        {"esframe_health_si", "siti's spatial information of the latest frame."},
        {"esframe_health_ti", "siti's temporal information of the latest frame."},
        {"esframe_health_tenengrad", "Mean squared Sobel magnitude (focus) of the latest frame."},
        {"esframe_health_entropy", "Entropy of the latest frame's luma histogram, in bits."},
    };
    const double values[] = {h.black,       double(h.black_picture),
                             h.ydif,        h.scene_score,
                             h.freeze_mafd, double(h.frozen),
                             h.si,          h.ti,
                             h.tenengrad,   h.entropy};
    for (size_t i = 0; i < std::size(gauges); ++i) {
      m.family(gauges[i].first, "gauge", gauges[i].second);
      m.sample(number(values[i]));
    }
    if (!h.regions.empty()) {
      m.family("esframe_health_covered", "gauge",
               "1 when the grid's cells have lost their detail (flat) in the covered ratio.");
      m.sample(number(h.covered));
      const std::pair<const char*, const char*> region_gauges[] = {
          {"esframe_health_region_mean", "Mean luma of each health region, latest frame."},
          {"esframe_health_region_tenengrad", "Tenengrad (focus) of each health region."},
          {"esframe_health_region_changed",
           "Fraction of each health region's pixels changed from the previous frame."},
          {"esframe_health_region_flat", "1 when the health region's Tenengrad is below flat."},
      };
      for (size_t g = 0; g < std::size(region_gauges); ++g) {
        m.family(region_gauges[g].first, "gauge", region_gauges[g].second);
        for (size_t i = 0; i < h.regions.size(); ++i) {
          const RegionFigures& r = h.regions[i];
          const double v[] = {r.mean, r.tenengrad, r.changed, double(r.flat)};
          m.sample(number(v[g]), "region=\"" + std::to_string(i) + "\"");
        }
      }
    }
    m.family("esframe_health_events_total", "counter", "Health events since the run started.");
    for (size_t i = 0; i < events.size(); ++i)
      m.sample(std::to_string(events[i]),
               std::string("event=\"") + healthEventName(HealthEventType(i)) + "\"");
  }
  detectorFamilies(m, f);
  m.family("esframe_stage_duration_seconds", "gauge",
           "Time of each stage on the latest frame (clock: gpu timer query or wall).");
  for (const StageTiming& t : f.timings)
    m.sample(number(t.ms / 1000.0),
             "stage=\"" + escapeLabel(t.stage) + "\",clock=\"" + (t.gpu ? "gpu" : "wall") + "\"");
  return m.text();
}

Status PromOutput::writeEvents(const std::vector<HealthEvent>& events) {
  counts_.add(events);
  written_since_last_ = false;
  return finish();
}

Status PromOutput::write(const FrameResult& frame) {
  counts_.add(frame);
  last_ = frame;
  last_.gpu = nullptr;  // views into the pipeline, valid only during this call
  last_.image = nullptr;
  have_last_ = true;
  written_since_last_ = false;
  const auto now = std::chrono::steady_clock::now();
  if (now < next_write_) return Status::success();
  next_write_ = now + std::chrono::seconds(options_.every_s);
  return flush();
}

Status PromOutput::finish() {
  if (!have_last_ || written_since_last_) return Status::success();
  return flush();
}

Status PromOutput::flush() {
  written_since_last_ = true;
  // The collector must never read half a file: a temporary in the same folder, then rename.
  const std::string text = promText(last_, counts_);
  Result<AtomicFile> file = AtomicFile::create(options_.path, ExistingFile::kReplace);
  if (!file) return file.error();
  if (Status s = file->write(text.data(), text.size()); !s) return s;
  return file->commit();
}

}  // namespace esf
