#include "apps/gstreamer/frame_mapping.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "esframe/text_parse.hpp"

namespace esf::gst {
namespace {

GstStructure* statsStructure(const ChannelStats& s) {
  return gst_structure_new(
      std::string(1, s.channel).c_str(), "min", G_TYPE_UINT, s.min, "max", G_TYPE_UINT, s.max,
      "mean", G_TYPE_DOUBLE, s.mean, "p1", G_TYPE_UINT, s.p1, "p10", G_TYPE_UINT, s.p10, "p50",
      G_TYPE_UINT, s.p50, "p90", G_TYPE_UINT, s.p90, "p99", G_TYPE_UINT, s.p99, "clip_low",
      G_TYPE_DOUBLE, s.clip_low, "clip_high", G_TYPE_DOUBLE, s.clip_high, "msv", G_TYPE_DOUBLE,
      s.msv, "pixels", G_TYPE_UINT64, guint64(s.count), nullptr);
}

// Takes ownership of `child`.
void setStructureField(GstStructure* parent, const char* name, GstStructure* child) {
  GValue v = G_VALUE_INIT;
  g_value_init(&v, GST_TYPE_STRUCTURE);
  g_value_take_boxed(&v, child);
  gst_structure_take_value(parent, name, &v);
}

// Counts as GBytes of little-endian uint32 words, whatever the host's byte order.
void setCountsField(GstStructure* parent, const char* name, const std::vector<uint32_t>& counts) {
  std::vector<uint8_t> bytes(counts.size() * 4);
  for (size_t i = 0; i < counts.size(); ++i)
    for (size_t b = 0; b < 4; ++b) bytes[i * 4 + b] = uint8_t(counts[i] >> (8 * b));
  GBytes* data = g_bytes_new(bytes.data(), bytes.size());
  gst_structure_set(parent, name, G_TYPE_BYTES, data, nullptr);
  g_bytes_unref(data);
}

GstStructure* scopesStructure(const ScopeCounts& scopes) {
  GstStructure* s = gst_structure_new("scopes", "columns", G_TYPE_INT, scopes.columns, nullptr);
  if (!scopes.waveform.empty()) setCountsField(s, "waveform", scopes.waveform);
  if (!scopes.parade.empty()) setCountsField(s, "parade", scopes.parade);
  if (!scopes.vectorscope.empty()) {
    setCountsField(s, "vectorscope", scopes.vectorscope);
    gst_structure_set(s, "vectorscope_samples", G_TYPE_UINT64, guint64(scopes.vectorscope_samples),
                      nullptr);
  }
  return s;
}

// --signalstats' figures as doubles by the JSONL's names (docs/output-formats.md, "Signalstats").
void setSignalstatsFields(GstStructure* s, const SignalstatsFigures& g) {
  for (const auto& [letter, p] : {std::pair{"U", &g.u}, {"V", &g.v}}) {
    for (const auto& [suffix, v] : {std::pair{"MIN", double(p->min)},
                                    {"LOW", double(p->low)},
                                    {"AVG", p->avg},
                                    {"HIGH", double(p->high)},
                                    {"MAX", double(p->max)},
                                    {"DIF", p->dif}})
      gst_structure_set(s, (std::string(letter) + suffix).c_str(), G_TYPE_DOUBLE, v, nullptr);
  }
  gst_structure_set(s, "BRNG", G_TYPE_DOUBLE, g.brng, "SATMIN", G_TYPE_DOUBLE, double(g.sat_min),
                    "SATLOW", G_TYPE_DOUBLE, double(g.sat_low), "SATAVG", G_TYPE_DOUBLE, g.sat_avg,
                    "SATHIGH", G_TYPE_DOUBLE, double(g.sat_high), "SATMAX", G_TYPE_DOUBLE,
                    double(g.sat_max), "HUEMED", G_TYPE_DOUBLE, double(g.hue_median), "HUEAVG",
                    G_TYPE_DOUBLE, g.hue_avg, nullptr);
  if (g.tout) gst_structure_set(s, "TOUT", G_TYPE_DOUBLE, *g.tout, nullptr);
  if (g.vrep) gst_structure_set(s, "VREP", G_TYPE_DOUBLE, *g.vrep, nullptr);
}

GstStructure* cropdetectStructure(const CropDetectFigures& c) {
  const std::string crop = std::to_string(c.w) + ":" + std::to_string(c.h) + ":" +
                           std::to_string(c.x) + ":" + std::to_string(c.y);
  return gst_structure_new("cropdetect", "x1", G_TYPE_INT, c.x1, "x2", G_TYPE_INT, c.x2, "y1",
                           G_TYPE_INT, c.y1, "y2", G_TYPE_INT, c.y2, "w", G_TYPE_INT, c.w, "h",
                           G_TYPE_INT, c.h, "x", G_TYPE_INT, c.x, "y", G_TYPE_INT, c.y, "crop",
                           G_TYPE_STRING, crop.c_str(), nullptr);
}

}  // namespace

Result<ScopeOptions> parseScopes(const std::string& text) {
  ScopeOptions scopes;
  for (size_t start = 0; start <= text.size();) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = std::string_view(text).substr(start, comma - start);
    start = comma + 1;
    if (item.starts_with("columns=")) {
      Result<uint64_t> n = parseUnsigned(item.substr(8), "scopes: columns", 1, kScopeMaxColumns);
      if (!n) return n.error();
      scopes.columns = int(*n);
      continue;
    }
    bool* flag = item == "waveform"      ? &scopes.waveform
                 : item == "parade"      ? &scopes.parade
                 : item == "vectorscope" ? &scopes.vectorscope
                                         : nullptr;
    if (!flag || *flag)
      return fail(
          ErrorCode::kInvalidArgument, "scopes: '", item,
          flag ? "' given twice" : "': expected waveform, parade, vectorscope or columns=N");
    *flag = true;
  }
  if (!scopes.any())
    return fail(ErrorCode::kInvalidArgument, "scopes: name waveform, parade or vectorscope");
  return scopes;
}

GstStructure* resultStructure(const FrameResult& r, GstClockTime pts) {
  GstStructure* s = gst_structure_new(
      "esframe", "seq", G_TYPE_UINT64, guint64(r.seq), "ts_ns", G_TYPE_UINT64, guint64(r.ts_ns),
      "pts", G_TYPE_UINT64, guint64(pts), "source", G_TYPE_STRING, r.source.c_str(), "width",
      G_TYPE_INT, r.width, "height", G_TYPE_INT, r.height, "format", G_TYPE_STRING,
      r.format.c_str(), "dropped", G_TYPE_UINT64, guint64(r.dropped), "bins", G_TYPE_INT,
      r.hist.bins, "zero_copy", G_TYPE_BOOLEAN, gboolean(r.zero_copy), nullptr);
  GstStructure* hist = gst_structure_new_empty("hist");
  for (int c = 0; c < r.hist.channelCount(); ++c) {
    GValue counts = G_VALUE_INIT;
    gst_value_array_init(&counts, guint(r.hist.bins));
    for (uint32_t n : r.hist.channel(c)) {
      GValue v = G_VALUE_INIT;
      g_value_init(&v, G_TYPE_UINT);
      g_value_set_uint(&v, n);
      gst_value_array_append_and_take_value(&counts, &v);
    }
    gst_structure_take_value(hist, std::string(1, r.hist.channels[size_t(c)]).c_str(), &counts);
  }
  setStructureField(s, "hist", hist);
  GstStructure* stats = gst_structure_new_empty("stats");
  for (const ChannelStats& c : r.stats)
    setStructureField(stats, std::string(1, c.channel).c_str(), statsStructure(c));
  setStructureField(s, "stats", stats);
  GstStructure* timing = gst_structure_new_empty("timing_ms");
  for (const StageTiming& t : r.timings)
    gst_structure_set(timing, t.stage.c_str(), G_TYPE_DOUBLE, t.ms, nullptr);
  setStructureField(s, "timing_ms", timing);
  if (r.health) {  // docs/output-formats.md, "Camera health": the JSONL's names
    const HealthFigures& h = *r.health;
    GstStructure* health = gst_structure_new(
        "health", "black", G_TYPE_DOUBLE, h.black, "black_pixels", G_TYPE_UINT64,
        guint64(h.black_pixels), "black_level", G_TYPE_UINT, guint(h.black_level), "black_picture",
        G_TYPE_BOOLEAN, gboolean(h.black_picture), "ydif", G_TYPE_DOUBLE, h.ydif, "scene_mafd",
        G_TYPE_DOUBLE, h.scene_mafd, "scene_score", G_TYPE_DOUBLE, h.scene_score, "freeze_mafd",
        G_TYPE_DOUBLE, h.freeze_mafd, "frozen", G_TYPE_BOOLEAN, gboolean(h.frozen), "si",
        G_TYPE_DOUBLE, h.si, "ti", G_TYPE_DOUBLE, h.ti, "tenengrad", G_TYPE_DOUBLE, h.tenengrad,
        "entropy", G_TYPE_DOUBLE, h.entropy, nullptr);
    if (!h.regions.empty())
      gst_structure_set(health, "covered", G_TYPE_BOOLEAN, gboolean(h.covered), nullptr);
    setStructureField(s, "health", health);
  }
  if (r.scopes) setStructureField(s, "scopes", scopesStructure(*r.scopes));
  if (r.signalstats) setSignalstatsFields(s, *r.signalstats);
  if (r.cropdetect) setStructureField(s, "cropdetect", cropdetectStructure(*r.cropdetect));
  // ffmpeg's float as a double; NaN where ffmpeg prints nan (the JSONL's null).
  if (r.blur) gst_structure_set(s, "blur", G_TYPE_DOUBLE, double(*r.blur), nullptr);
  if (r.block) gst_structure_set(s, "block", G_TYPE_DOUBLE, double(*r.block), nullptr);
  return s;
}

GstStructure* eventStructure(const HealthEvent& e) {
  return gst_structure_new("esframe-health", "event", G_TYPE_STRING, healthEventName(e.type), "seq",
                           G_TYPE_UINT64, guint64(e.seq), "ts_ns", G_TYPE_UINT64, guint64(e.ts_ns),
                           "start_ns", G_TYPE_UINT64, guint64(e.start_ns), "end_ns", G_TYPE_UINT64,
                           guint64(e.end_ns), "score", G_TYPE_DOUBLE, e.score, nullptr);
}

}  // namespace esf::gst
