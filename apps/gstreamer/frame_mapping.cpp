#include "apps/gstreamer/frame_mapping.hpp"

#include <gst/allocators/gstdmabuf.h>

#include <string>

#include "esframe/base/sizes.hpp"

namespace esf::gst {
namespace {

struct FormatPair {
  GstVideoFormat gst;
  PixelFormat esframe;
};

// Byte order in memory on both sides: GStreamer names bytes, V4L2 names (base/pixel_format)
// say the same order. RGBx's padding byte is read as alpha, which no histogram channel counts.
constexpr FormatPair kFormats[] = {
    {GST_VIDEO_FORMAT_RGBA, PixelFormat::kRGBA32}, {GST_VIDEO_FORMAT_RGBx, PixelFormat::kRGBA32},
    {GST_VIDEO_FORMAT_BGRA, PixelFormat::kABGR32}, {GST_VIDEO_FORMAT_BGRx, PixelFormat::kXBGR32},
    {GST_VIDEO_FORMAT_ARGB, PixelFormat::kARGB32}, {GST_VIDEO_FORMAT_xRGB, PixelFormat::kXRGB32},
    {GST_VIDEO_FORMAT_RGB, PixelFormat::kRGB24},   {GST_VIDEO_FORMAT_BGR, PixelFormat::kBGR24},
    {GST_VIDEO_FORMAT_YUY2, PixelFormat::kYUYV},   {GST_VIDEO_FORMAT_UYVY, PixelFormat::kUYVY},
    {GST_VIDEO_FORMAT_NV12, PixelFormat::kNV12},   {GST_VIDEO_FORMAT_NV21, PixelFormat::kNV21},
    {GST_VIDEO_FORMAT_I420, PixelFormat::kYU12},   {GST_VIDEO_FORMAT_GRAY8, PixelFormat::kGREY},
};

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

std::optional<PixelFormat> pixelFormatOf(GstVideoFormat format) {
  for (const FormatPair& p : kFormats)
    if (p.gst == format) return p.esframe;
  return std::nullopt;
}

const char* capsFormatList() {
  return "{ RGBA, RGBx, BGRA, BGRx, ARGB, xRGB, RGB, BGR, YUY2, UYVY, NV12, NV21, I420, GRAY8 }";
}

Status checkCapsLimits(const GstVideoInfo& info) {
  const int width = GST_VIDEO_INFO_WIDTH(&info), height = GST_VIDEO_INFO_HEIGHT(&info);
  const std::string what = "caps " + std::to_string(width) + "x" + std::to_string(height);
  if (Status s = checkFrameSize(what, width, height, ErrorCode::kUnsupported); !s) return s;
  if (uint64_t(GST_VIDEO_INFO_SIZE(&info)) > kMaxFrameBytes)
    return fail(ErrorCode::kUnsupported, what, ": ", std::to_string(GST_VIDEO_INFO_SIZE(&info)),
                " bytes a frame is over the ", std::to_string(kMaxFrameBytes >> 20),
                " MiB frame buffer limit");
  return {};
}

Frame frameOf(const GstVideoFrame& video, bool use_dmabuf) {
  const GstVideoInfo& info = video.info;
  Frame f;
  f.format = *pixelFormatOf(GST_VIDEO_INFO_FORMAT(&info));
  f.width = GST_VIDEO_INFO_WIDTH(&info);
  f.height = GST_VIDEO_INFO_HEIGHT(&info);
  f.colorimetry.encoding = info.colorimetry.matrix == GST_VIDEO_COLOR_MATRIX_BT709
                               ? YcbcrEncoding::kBt709
                               : YcbcrEncoding::kBt601;
  f.colorimetry.full_range = info.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255;
  f.plane_count = int(GST_VIDEO_INFO_N_PLANES(&info));
  for (int i = 0; i < f.plane_count; ++i) {
    FramePlane& p = f.planes[size_t(i)];
    p.data = static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&video, i));
    p.stride = GST_VIDEO_FRAME_PLANE_STRIDE(&video, i);
    // Every format of the table keeps component i first in plane i.
    // Within kMaxFrameBytes: the caps passed checkCapsLimits.
    p.size = saturatingSize(p.stride, GST_VIDEO_FRAME_COMP_HEIGHT(&video, i));
    if (!use_dmabuf) continue;
    guint index = 0, length = 0;
    gsize skip = 0;
    if (!gst_buffer_find_memory(video.buffer, GST_VIDEO_FRAME_PLANE_OFFSET(&video, i), 1, &index,
                                &length, &skip))
      continue;
    GstMemory* memory = gst_buffer_peek_memory(video.buffer, index);
    if (!gst_is_dmabuf_memory(memory)) continue;
    p.dmabuf_fd = gst_dmabuf_memory_get_fd(memory);
    p.offset = uint32_t(memory->offset + skip);
  }
  // The import takes all planes from dmabufs or none.
  for (int i = 0; i < f.plane_count; ++i)
    if (f.planes[size_t(i)].dmabuf_fd < 0)
      for (int k = 0; k < f.plane_count; ++k) f.planes[size_t(k)].dmabuf_fd = -1;
  f.timestamp_ns = GST_BUFFER_PTS_IS_VALID(video.buffer) ? GST_BUFFER_PTS(video.buffer) : 0;
  f.sequence = GST_BUFFER_OFFSET_IS_VALID(video.buffer) ? GST_BUFFER_OFFSET(video.buffer) : 0;
  return f;
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
  return s;
}

GstStructure* eventStructure(const HealthEvent& e) {
  return gst_structure_new("esframe-health", "event", G_TYPE_STRING, healthEventName(e.type), "seq",
                           G_TYPE_UINT64, guint64(e.seq), "ts_ns", G_TYPE_UINT64, guint64(e.ts_ns),
                           "start_ns", G_TYPE_UINT64, guint64(e.start_ns), "end_ns", G_TYPE_UINT64,
                           guint64(e.end_ns), "score", G_TYPE_DOUBLE, e.score, nullptr);
}

}  // namespace esf::gst
