#pragma once
// From GStreamer's buffers to the library's frames, and from the library's results to the
// element message. A client of the public API only (esframe/*.hpp, and capture/gst_video_frame,
// which is built into the element itself and includes no more).
#include <gst/gst.h>
#include <gst/video/video.h>

#include <optional>
#include <string>

#include "capture/gst_video_frame.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"

namespace esf::gst {

// The GstStructure "esframe" with the JSONL's field names (docs/output-formats.md): seq, ts_ns,
// source, width, height, format, dropped, bins, hist {channel: counts}, stats {channel: {...}},
// timing_ms {stage: ms}; plus pts (the buffer's, in ns) and zero_copy. With scopes, "scopes":
// columns (int), vectorscope_samples (guint64) and each scope counted as GBytes of little-endian
// uint32 counts in the JSONL's index order (waveform columns x 256, parade 3 x columns x 256,
// vectorscope 256 x 256, [cr][cb]). With signalstats, its figures as doubles by ffmpeg's names
// (UMIN ... VDIF, BRNG, SATMIN ... HUEAVG, TOUT, VREP); with detect, "cropdetect" (x1, x2, y1, y2,
// w, h, x, y as ints, crop "w:h:x:y"; after cropdetect's skipped frames) and the doubles "blur"
// and "block" (NaN where ffmpeg prints nan).
GstStructure* resultStructure(const FrameResult& result, GstClockTime pts);
// The "scopes" property: "waveform,parade,vectorscope[,columns=N]", any of the three at least
// once each, as esframe run --scopes takes it.
Result<ScopeOptions> parseScopes(const std::string& text);
// A health event as an "esframe-health" structure: the JSONL event line's fields (start_ns and
// end_ns 0 where the event has none, score 0 but for scene_change).
GstStructure* eventStructure(const HealthEvent& event);

}  // namespace esf::gst
