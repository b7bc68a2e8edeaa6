#pragma once
// From GStreamer's buffers to the library's frames, and from the library's results to the
// element message. A client of the public API only (esframe/*.hpp).
#include <gst/gst.h>
#include <gst/video/video.h>

#include <optional>

#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"

namespace esf::gst {

// The one table between GstVideoFormat and the formats esframe imports; nullopt for others.
std::optional<PixelFormat> pixelFormatOf(GstVideoFormat format);
// The formats of the table, for the pad template: "{ RGBA, RGBx, ... }".
const char* capsFormatList();

// The frame limits (esframe/base/sizes.hpp) on negotiated caps: a size within kMaxFrameSide each
// way and a frame of at most kMaxFrameBytes; kUnsupported naming the caps otherwise.
Status checkCapsLimits(const GstVideoInfo& info);

// A Frame over a mapped video frame's planes (no copy). With `use_dmabuf`, planes that lie in
// dmabuf memories carry their fd and offset too, for the zero-copy import.
Frame frameOf(const GstVideoFrame& video, bool use_dmabuf);

// The GstStructure "esframe" with the JSONL's field names (docs/output-formats.md): seq, ts_ns,
// source, width, height, format, dropped, bins, hist {channel: counts}, stats {channel: {...}},
// timing_ms {stage: ms}; plus pts (the buffer's, in ns) and zero_copy.
GstStructure* resultStructure(const FrameResult& result, GstClockTime pts);
// A health event as an "esframe-health" structure: the JSONL event line's fields (start_ns and
// end_ns 0 where the event has none, score 0 but for scene_change).
GstStructure* eventStructure(const HealthEvent& event);

}  // namespace esf::gst
