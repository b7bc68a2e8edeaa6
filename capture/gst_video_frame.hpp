#pragma once
// GStreamer's video frames as the library's Frames: the one table between GstVideoFormat and the
// formats esframe imports, and a Frame over a mapped GstVideoFrame. Compiled into what is built
// against GStreamer, the network source's module (gst_network_stream.cpp) and the GStreamer
// element (apps/gstreamer), never into libesframe; public headers and GStreamer's only.
#include <gst/gst.h>
#include <gst/video/video.h>

#include <optional>

#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"

namespace esf::gst {

// The GstVideoFormat's PixelFormat; nullopt for a format esframe does not import.
std::optional<PixelFormat> pixelFormatOf(GstVideoFormat format);
// The formats of the table, for caps: "{ RGBA, RGBx, ... }".
const char* capsFormatList();

// The frame limits (esframe/base/sizes.hpp) on negotiated caps: a size within kMaxFrameSide each
// way and a frame of at most kMaxFrameBytes; kUnsupported naming the caps otherwise.
Status checkCapsLimits(const GstVideoInfo& info);

// A Frame over a mapped video frame's planes (no copy): its format, size, colorimetry and planes,
// the buffer's PTS (0 without one) and offset. The caps passed checkCapsLimits. With `use_dmabuf`,
// planes that lie in dmabuf memories carry their fd and offset too, for the zero-copy import.
Frame frameOf(const GstVideoFrame& video, bool use_dmabuf);

}  // namespace esf::gst
