#include "apps/gstreamer/frame_mapping.hpp"

#include <string>

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

}  // namespace

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
  return s;
}

GstStructure* eventStructure(const HealthEvent& e) {
  return gst_structure_new("esframe-health", "event", G_TYPE_STRING, healthEventName(e.type), "seq",
                           G_TYPE_UINT64, guint64(e.seq), "ts_ns", G_TYPE_UINT64, guint64(e.ts_ns),
                           "start_ns", G_TYPE_UINT64, guint64(e.start_ns), "end_ns", G_TYPE_UINT64,
                           guint64(e.end_ns), "score", G_TYPE_DOUBLE, e.score, nullptr);
}

}  // namespace esf::gst
